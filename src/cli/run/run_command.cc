#include "cli/commands.h"
#include "cli/run/run_flags.h"

namespace dfbench::cli {
namespace {

int RunRun(const SetGetCommandFlags& f) {
  scenarios::SetGetOptions options = ToSetGetCommandOptions(f);
  return RunBench(scenarios::SetGetOnSetup, f.target.id, std::move(options),
                  MakeDriver(f.run.load_generator), f.run.output);
}

}  // namespace

void AddRun(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(sub, action, &RunRun);
  AddSetGetCommandFlags(sub, f.get());
}

}  // namespace dfbench::cli
