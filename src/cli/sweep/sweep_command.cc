#include "cli/commands.h"
#include "cli/sweep/sweep_flags.h"

namespace dfbench::cli {

void AddSweep(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(
      sub, action, &RunOnBuiltinDriver<SweepFlags, scenarios::SweepOnSetup, ToSweepOptions>);
  AddSweepFlags(sub, f.get());
}

}  // namespace dfbench::cli
