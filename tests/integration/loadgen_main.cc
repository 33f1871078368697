// A test-only executable with just the loadgen subcommand, so the load generator's CLI (flags,
// exit codes, output) can be exercised end to end without the rest of the program.
#include <cstdio>

#include "cli/command.h"
#include "cli/commands.h"
#include "core/interrupt.h"

namespace dfbench::cli {
void SetExamples(CLI::App* sub, const std::string& examples) {
  sub->footer("\nExamples:\n" + examples);
}
}  // namespace dfbench::cli

int main(int argc, char** argv) {
  using dfbench::cli::ExitError;
  dfbench::core::InstallInterruptHandlers();
  CLI::App app{"dfbench (loadgen only, for tests)", "dfbench"};
  app.require_subcommand(1);
  dfbench::cli::Action action;
  dfbench::cli::AddLoadgen(app.add_subcommand("loadgen", "The built-in load generator"), &action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "dfbench: %s\n", e.what());
    return static_cast<int>(dfbench::core::ErrorKind::kUsage);
  } catch (const ExitError& e) {
    std::fprintf(stderr, "dfbench: %s\n", e.error.message.c_str());
    return static_cast<int>(e.error.kind);
  }
  try {
    return action();
  } catch (const ExitError& e) {
    std::fprintf(stderr, "dfbench: %s\n", e.error.message.c_str());
    return static_cast<int>(e.error.kind);
  }
}
