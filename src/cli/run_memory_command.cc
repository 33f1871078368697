#include <memory>

#include "cli/commands.h"
#include "cli/run_memory_flags.h"
#include "drivers/builtin_driver.h"

namespace dfbench::cli {
namespace {

int RunRunMemory(const RunMemoryFlags& f) {
  return RunBench(scenarios::MemoryOnSetup, f.target.id, ToRunMemoryOptions(f),
                  std::make_unique<drivers::BuiltinDriver>(), f.output);
}

}  // namespace

void AddRunMemory(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(sub, action, &RunRunMemory);
  AddRunMemoryFlags(sub, f.get());
}

}  // namespace dfbench::cli
