#include "cli/commands.h"
#include "cli/run_memory/run_memory_flags.h"

namespace dfbench::cli {

void AddRunMemory(CLI::App* sub, Action* action) {
  auto f = AddBenchCommand(
      sub, action,
      &RunOnBuiltinDriver<RunMemoryFlags, scenarios::MemoryOnSetup, ToRunMemoryOptions>);
  AddRunMemoryFlags(sub, f.get());
}

}  // namespace dfbench::cli
