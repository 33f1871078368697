#include <cstdio>

#include "cli/commands.h"
#include "cli/setup/setup_flags.h"
#include "core/text.h"
#include "scenarios/setup/lifecycle.h"

namespace dfbench::cli {
namespace {

int RunSetup(const SetupFlags& f, const CLI::App* sub) {
  scenarios::SetupOptions o = ToSetupCommandOptions(f, sub);
  if (!PlanAndConfirm(f.target, &o, /*quickstart=*/false, /*keep=*/true)) return 0;
  auto created = scenarios::CreateSetup(o);
  if (!created) {
    // A stack kept after a failure is left for the user to look at: the last line says what
    // keeps billing and how to stop it.
    const auto left = scenarios::StackLeftByFailedSetup(o.id);
    if (!left) throw ExitError{created.error()};
    std::fprintf(stderr, "dfbench: %s\ndfbench: %s\n",
                 core::Printable(created.error().message, true).c_str(),
                 core::Printable(providers::StillRunningLine(*left), true).c_str());
    return static_cast<int>(created.error().kind);
  }
  const state::SetupState& s = *created;
  std::printf("Setup %s is ready.\n", s.id.c_str());
  for (const auto& e : s.engines) {
    // The version is the server's own text (INFO, --version).
    std::printf("  %-10s %-28s %s\n", e.name.c_str(), core::Printable(e.version).c_str(),
                core::Printable(e.binary).c_str());
  }
  std::printf(
      "\nNext steps:\n  dfbench run     --id %s\n  dfbench info    --id %s\n"
      "  dfbench destroy --id %s\n",
      s.id.c_str(), s.id.c_str(), s.id.c_str());
  if (s.FindHost(core::Role::Replica(0)))
    std::printf("  dfbench run-replication --id %s\n", s.id.c_str());
  if (state::IsRemote(s.provider))
    std::printf("  dfbench ssh     --id %s --target server\n", s.id.c_str());
  return 0;
}

}  // namespace

void AddSetup(CLI::App* sub, Action* action) {
  AddFlagsCommand(sub, action, &AddSetupFlags,
                  [sub](const SetupFlags& f) { return RunSetup(f, sub); });
}

}  // namespace dfbench::cli
