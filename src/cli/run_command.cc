#include "cli/commands.h"
#include "cli/flags.h"

namespace dfbench::cli {
namespace {

struct RunCommandFlags {
  BenchTargetFlags target;
  RunFlags run;
};

int RunRun(const RunCommandFlags& f) {
  scenarios::RunOptions options = ToRunOptions(f.run, ParseEngines(f.target.engines));
  return RunBench(scenarios::RunOnSetup, f.target.id, std::move(options),
                  MakeDriver(f.run.load_generator), f.run.output);
}

}  // namespace

void AddRun(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(sub, action, &RunRun);
  AddRunFlags(sub, &f->run, /*with_versions=*/true);
}

}  // namespace dfbench::cli
