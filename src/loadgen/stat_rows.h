// The rows of a run's report, as memtier's --command-stats-breakdown makes them: one per command
// name, the --commands that share it summed (command, memtier's default:
// run_stats::build_aggregated_command_stats), or one per --command (line). The mix's slots stay
// per --command; their figures are folded into rows as each second reaches the coordinator.
#pragma once

#include <cstddef>
#include <vector>

#include "loadgen/config.h"
#include "loadgen/histogram.h"
#include "loadgen/stats.h"
#include "loadgen/workload.h"

namespace dfbench::loadgen {

struct StatRows {
  std::vector<size_t> row_of_slot;
  std::vector<size_t> first_slot;  // per row: the slot that names it (the first of its name)
  bool one_per_slot = true;        // nothing to fold

  size_t size() const { return first_slot.size(); }
};

StatRows MakeStatRows(const Workload& workload, StatsBreakdown breakdown);

// One second's per-slot figures become per-row figures, in place.
void FoldIntoRows(const StatRows& rows, std::vector<SecondBlock::PerSlot>* slots);

// The same for whole-run histograms kept per slot (open loop's uncorrected latency).
std::vector<LatencyHistogram> FoldIntoRows(const StatRows& rows,
                                           const std::vector<LatencyHistogram>& per_slot);

}  // namespace dfbench::loadgen
