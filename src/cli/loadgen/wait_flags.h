// memtier_benchmark's WAIT flags: --wait-ratio SETS:WAITS, --num-slaves MIN-MAX and
// --wait-timeout MIN-MAX (milliseconds), read as memtier reads them (config_types.cpp).
#pragma once

#include "cli/command.h"
#include "cli/loadgen/loadgen_options.h"
#include "core/error.h"
#include "loadgen/config.h"

namespace dfbench::cli {

void AddWaitFlags(CLI::App* sub, LoadgenOptions* options);

// The WAIT flags into config->wait; kUsage with one line naming the flag on a bad value.
core::Status ParseWaitOptions(const LoadgenOptions& options, loadgen::Config* config);

}  // namespace dfbench::cli
