#include <memory>

#include "cli/commands.h"
#include "cli/run_commands/run_commands_flags.h"
#include "drivers/dfly_bench_driver.h"

namespace dfbench::cli {
namespace {

int RunRunCommandsDfly(const RunCommandsDflyFlags& f) {
  scenarios::CommandOptions options = ToRunCommandsDflyOptions(f);
  return RunBench(scenarios::CommandsOnSetup, f.target.id, std::move(options),
                  std::make_unique<drivers::DflyBenchDriver>(f.binary), f.common.output);
}

}  // namespace

void AddRunCommandsDfly(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(sub, action, &RunRunCommandsDfly);
  AddRunCommandsDflyFlags(sub, f.get());
}

}  // namespace dfbench::cli
