#include <memory>

#include "cli/commands.h"
#include "cli/sweep_flags.h"
#include "drivers/builtin_driver.h"

namespace dfbench::cli {
namespace {

int RunSweepCommand(const SweepFlags& f) {
  return RunBench(scenarios::SweepOnSetup, f.target.id, ToSweepOptions(f),
                  std::make_unique<drivers::BuiltinDriver>(), f.output);
}

}  // namespace

void AddSweep(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(sub, action, &RunSweepCommand);
  AddSweepFlags(sub, f.get());
}

}  // namespace dfbench::cli
