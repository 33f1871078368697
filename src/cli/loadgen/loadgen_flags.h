// The flags of `loadgen` (memtier_benchmark's spelling, read into LoadgenOptions) and the rule
// that turns them into its Config. Part of the client's files: nothing above loadgen.
#pragma once

#include "cli/command.h"
#include "cli/loadgen/loadgen_options.h"
#include "loadgen/config.h"

namespace dfbench::cli {

// Every flag of loadgen; a repeated one takes its last value, as with getopt. --command-ratio
// and --command-key-pattern apply to the --command before them, as they are parsed.
void AddLoadgenFlags(CLI::App* sub, LoadgenOptions* options);

// ParseLoadgenOptions, and --json-out-file checked writable before the load; throws ExitError
// with one line.
loadgen::Config ToLoadgenConfig(const LoadgenOptions& options);

}  // namespace dfbench::cli
