#include "loadgen/stat_rows.h"

namespace dfbench::loadgen {

StatRows MakeStatRows(const Workload& workload, StatsBreakdown breakdown) {
  StatRows rows;
  rows.row_of_slot.resize(workload.slots.size(), 0);
  for (size_t slot = 0; slot < workload.slots.size(); ++slot) {
    // __monitor_line@__ has no row of its own: its requests are counted in their commands'
    // slots, so it folds nothing into the first row.
    if (workload.slots[slot].kind == Slot::Kind::kReplay) {
      rows.one_per_slot = false;
      continue;
    }
    size_t row = rows.size();
    if (breakdown == StatsBreakdown::kCommand) {
      for (size_t r = 0; r < rows.size(); ++r) {
        if (workload.slots[rows.first_slot[r]].type == workload.slots[slot].type) row = r;
      }
    }
    if (row == rows.size()) {
      rows.first_slot.push_back(slot);
    } else {
      rows.one_per_slot = false;
    }
    rows.row_of_slot[slot] = row;
  }
  return rows;
}

void FoldIntoRows(const StatRows& rows, std::vector<SecondBlock::PerSlot>* slots) {
  if (rows.one_per_slot) return;
  std::vector<SecondBlock::PerSlot> folded(rows.size());
  for (size_t slot = 0; slot < slots->size(); ++slot) {
    SecondBlock::PerSlot& row = folded[rows.row_of_slot[slot]];
    row.counters.Add((*slots)[slot].counters);
    row.latency.Merge((*slots)[slot].latency);
  }
  *slots = std::move(folded);
}

std::vector<LatencyHistogram> FoldIntoRows(const StatRows& rows,
                                           const std::vector<LatencyHistogram>& per_slot) {
  if (rows.one_per_slot) return per_slot;
  std::vector<LatencyHistogram> folded(per_slot.empty() ? 0 : rows.size());
  for (size_t slot = 0; slot < per_slot.size(); ++slot) {
    folded[rows.row_of_slot[slot]].Merge(per_slot[slot]);
  }
  return folded;
}

}  // namespace dfbench::loadgen
