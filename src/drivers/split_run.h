// One pass driven by several load generators at once: on several client hosts, or as several
// processes on one, each on its own CPUs. The load is divided among them, their measured parts
// start together, and their reports merge exactly (generator_report.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "drivers/driver.h"
#include "hosts/host.h"
#include "results/schema.h"

namespace dfbench::drivers {

// Where one generator runs: its host, its CPUs there (empty: unpinned), its name in results,
// and how far its host's clock is ahead of this machine's.
struct LoadClient {
  hosts::Host* host = nullptr;
  std::vector<int> cpus;
  std::string name;
  int64_t clock_offset_us = 0;
};

// `load` divided among `n` generators: its threads as evenly as they go (the first ones one
// more), each with the load's connections per thread and pipeline, seeds continuing from one
// to the next. A fill, or a sequential or parallel key pattern, gets the key range split into n
// contiguous slices (every key still once); other patterns share the range. kUsage when the
// load has fewer threads than generators, or a split range fewer keys.
core::Result<std::vector<core::Load>> SplitLoad(const core::Load& load, const core::Pass& pass,
                                                size_t n);

// How long the generators get to start and connect before their measured parts begin.
inline constexpr std::chrono::seconds kStartAllowance{2};

// Runs `pass` of `load` on every client at once through `driver`, each with its share, each
// holding its measured part until one common instant (its clock offset applied), its live
// metrics those of its own part (core::ForGenerator: label and Prometheus port). Each
// generator's report is kept as <raw_report stem>-<n>.json beside `raw_report`; `raw_report`
// gets the merged histogram and the parts' names, and each histogram its HdrHistogram files
// (.hgrm, .txt). Returns the merged trial (MergeGenerators); the first error of any generator
// otherwise (an interruption before the others).
core::Result<results::TrialResult> RunSplit(Driver& driver, const std::vector<LoadClient>& clients,
                                            const Target& target, const core::Load& load,
                                            const core::Pass& pass,
                                            const std::filesystem::path& raw_report);

// The HdrHistogram files (<stem>.hgrm, <stem>.txt) of one generator's report at `raw_report`,
// titled `what`, when the report holds a histogram (ours and memtier's JSON do; dfly_bench's
// output does not, and gets none). A file that cannot be written is a line on stderr.
void WriteHdrFilesOf(const std::filesystem::path& raw_report, const std::string& what);

}  // namespace dfbench::drivers
