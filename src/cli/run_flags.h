// The flags of `run` and the rules that turn them into its scenario's options.
#pragma once

#include "cli/command.h"
#include "cli/flags.h"

namespace dfbench::cli {

struct RunCommandFlags {
  BenchTargetFlags target;
  RunFlags run;
};

// Every flag of run but --id and --engines (AddBenchCommand's).
void AddRunCommandFlags(CLI::App* sub, RunCommandFlags* flags);

// ToRunOptions over the engines of --engines. The caller makes the driver (MakeDriver) and
// sets it.
scenarios::RunOptions ToRunCommandOptions(const RunCommandFlags& flags);

}  // namespace dfbench::cli
