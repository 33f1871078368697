#include "cli/commands.h"
#include "cli/run_flags.h"

namespace dfbench::cli {
namespace {

int RunRun(const RunCommandFlags& f) {
  scenarios::RunOptions options = ToRunCommandOptions(f);
  return RunBench(scenarios::RunOnSetup, f.target.id, std::move(options),
                  MakeDriver(f.run.load_generator), f.run.output);
}

}  // namespace

void AddRun(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(sub, action, &RunRun);
  AddRunCommandFlags(sub, f.get());
}

}  // namespace dfbench::cli
