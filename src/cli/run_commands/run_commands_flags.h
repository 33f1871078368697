// The flags of `run-commands` and `run-commands-dfly` (over the ones they share,
// per_command_flags.h) and the rules that turn them into the scenario's options.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/per_command_flags.h"

namespace dfbench::cli {

struct RunCommandsFlags {
  BenchTargetFlags target;
  PerCommandFlags common;
  LoadGeneratorFlags load_generator;
};

// Every flag of run-commands but --id and --engines (AddBenchCommand's).
void AddRunCommandsFlags(CLI::App* sub, RunCommandsFlags* flags);

// ToCommandOptions over --engines. The caller makes the driver (MakeDriver) and sets it.
scenarios::CommandOptions ToRunCommandsOptions(const RunCommandsFlags& flags);

struct RunCommandsDflyFlags {
  BenchTargetFlags target{.engines = "dragonfly"};
  PerCommandFlags common;
  int qps = 0;
  std::string ref = "main";
  std::string binary;
  std::vector<std::string> deprecated;  // notices for the old --dfly-* spellings used
};

// Every flag of run-commands-dfly but --id and --engines, with the hidden --dfly-threads,
// --dfly-conns, --dfly-pipeline and --dfly-data-size.
void AddRunCommandsDflyFlags(CLI::App* sub, RunCommandsDflyFlags* flags);

// Notes each deprecated spelling used, then ToCommandOptions with dfly_bench's own: one seed
// per thread, --dfly-bench-qps per connection, --dfly-bench-ref recorded. The caller makes the
// driver (DflyBenchDriver of `binary`) and sets it.
scenarios::CommandOptions ToRunCommandsDflyOptions(const RunCommandsDflyFlags& flags);

}  // namespace dfbench::cli
