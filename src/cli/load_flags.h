// The load's flags (core::Load) of every benchmark command: each command's spelling and help
// over the one set of ranges (core/load_limits.h) and defaults (core/load.h).
#pragma once

#include "cli/command.h"
#include "core/load.h"

namespace dfbench::cli {

enum class LoadFlagsOf {
  kRun,              // run, quickstart, sweep: --memtier-threads ... --distinct-client-seed
  kRunCommands,      // the same names, seeds distinct by default
  kRunCommandsDfly,  // dfly_bench's: --dfly-bench-threads, -conns, -pipeline, -data-size
  kRunMemory,        // --memtier-threads (or --threads) ... and --value-size; no seed flag
};

// Adds the flags `command` takes for `load`, each checked against its range; `load` holds the
// defaults (shown in --help).
void AddLoadFlags(CLI::App* sub, core::Load* load, LoadFlagsOf command);

// Adds the SET:GET flag `names` holding `*ratio`, its default shown in --help. The text is read
// once, as it is parsed: a bad one is core::ParseRatio's usage error, before anything starts.
CLI::Option* AddRatioFlag(CLI::App* sub, const std::string& names, core::Ratio* ratio,
                          const std::string& help);

}  // namespace dfbench::cli
