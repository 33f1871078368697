#include "cli/commands.h"
#include "cli/run_commands/run_commands_flags.h"

namespace dfbench::cli {
namespace {

int RunRunCommands(const RunCommandsFlags& f) {
  scenarios::CommandOptions options = ToRunCommandsOptions(f);
  return RunBench(scenarios::CommandsOnSetup, f.target.id, std::move(options),
                  MakeDriver(f.load_generator), f.common.output);
}

}  // namespace

void AddRunCommands(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(sub, action, &RunRunCommands);
  AddRunCommandsFlags(sub, f.get());
}

}  // namespace dfbench::cli
