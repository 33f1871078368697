#include "cli/client_app.h"

#include <cstdio>

#include "cli/commands.h"
#include "core/interrupt.h"
#include "core/text.h"
#include "core/version.h"

namespace dfbench::cli {
namespace {

int PrintError(const std::string& message, core::ErrorKind kind) {
  std::fprintf(stderr, "dfbench: %s\n", core::Printable(message, true).c_str());
  return static_cast<int>(kind);
}

}  // namespace

int ClientMain(int argc, char** argv) {
  core::InstallInterruptHandlers();
  Action action;
  CLI::App app("dfbench client build: the built-in load generator only", "dfbench");
  app.require_subcommand(1);
  app.set_version_flag("--version", core::VersionLine(), "Print the embedded build version");
  app.fallthrough(false);
  AddLoadgen(app.add_subcommand("loadgen", "The built-in load generator"), &action);
  AddVersion(app.add_subcommand("version", "Print the embedded build version"), &action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-') {
      return PrintError("unknown command '" + std::string(argv[1]) +
                            "': this client build of dfbench runs only 'loadgen' and 'version'",
                        core::ErrorKind::kUsage);
    }
    return PrintError(std::string(e.what()) + "; see 'dfbench loadgen --help'",
                      core::ErrorKind::kUsage);
  } catch (const ExitError& e) {
    return PrintError(e.error.message, e.error.kind);
  }
  if (!action) return PrintError("no command given", core::ErrorKind::kUsage);
  try {
    return action();
  } catch (const ExitError& e) {
    return PrintError(e.error.message, e.error.kind);
  }
}

}  // namespace dfbench::cli
