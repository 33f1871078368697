#include <memory>

#include "cli/commands.h"
#include "cli/per_command_flags.h"

namespace dfbench::cli {
namespace {

struct RunCommandsFlags {
  BenchTargetFlags target;
  PerCommandFlags common;
  LoadGeneratorFlags load_generator;
};

int RunRunCommands(const RunCommandsFlags& f) {
  scenarios::CommandRunOptions options = ToCommandRunOptions(f.common, f.target.engines);
  return RunBench(scenarios::RunCommandsOnSetup, f.target.id, std::move(options),
                  MakeDriver(f.load_generator), f.common.output);
}

}  // namespace

void AddRunCommands(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(sub, action, &RunRunCommands);
  AddPerCommandFlags(sub, &f->common, LoadFlagsOf::kRunCommands);
  AddLoadGeneratorFlags(sub, &f->load_generator);
}

}  // namespace dfbench::cli
