// The flags of `run` and the rules that turn them into its scenario's options.
#pragma once

#include "cli/command.h"
#include "cli/flags.h"

namespace dfbench::cli {

struct SetGetCommandFlags {
  BenchTargetFlags target;
  SetGetFlags run;
};

// Every flag of run but --id and --engines (AddBenchCommand's).
void AddSetGetCommandFlags(CLI::App* sub, SetGetCommandFlags* flags);

// ToSetGetOptions over the engines of --engines. The caller makes the driver (MakeDriver) and
// sets it.
scenarios::SetGetOptions ToSetGetCommandOptions(const SetGetCommandFlags& flags);

}  // namespace dfbench::cli
