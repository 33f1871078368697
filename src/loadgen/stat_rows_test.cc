// The report's rows of a --command mix, as memtier's --command-stats-breakdown groups them.
#include "loadgen/stat_rows.h"

#include <gtest/gtest.h>

namespace dfbench::loadgen {
namespace {

Workload Mix(const std::vector<std::string>& types) {
  Workload w;
  for (const auto& type : types)
    w.slots.push_back(Slot{.section = SectionName(type), .type = type});
  return w;
}

TEST(StatRows, CommandGroupsTheSlotsOfOneNameInFirstSeenOrder) {
  const StatRows rows =
      MakeStatRows(Mix({"LPUSH", "GET", "LPUSH", "SET"}), StatsBreakdown::kCommand);
  EXPECT_EQ(rows.row_of_slot, (std::vector<size_t>{0, 1, 0, 2}));
  EXPECT_EQ(rows.first_slot, (std::vector<size_t>{0, 1, 3}));
  EXPECT_FALSE(rows.one_per_slot);
}

TEST(StatRows, LineKeepsOneRowPerSlot) {
  const StatRows rows = MakeStatRows(Mix({"LPUSH", "LPUSH"}), StatsBreakdown::kLine);
  EXPECT_EQ(rows.row_of_slot, (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(rows.one_per_slot);
}

TEST(StatRows, FoldingSumsCountersAndMergesHistograms) {
  const StatRows rows = MakeStatRows(Mix({"LPUSH", "GET", "LPUSH"}), StatsBreakdown::kCommand);
  std::vector<SecondBlock::PerSlot> slots(3);
  slots[0].counters.count = 2;
  slots[0].latency.Record(100);
  slots[1].counters.count = 5;
  slots[2].counters.count = 3;
  slots[2].counters.errors = 1;
  slots[2].latency.Record(900);
  FoldIntoRows(rows, &slots);
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_EQ(slots[0].counters.count, 5u);
  EXPECT_EQ(slots[0].counters.errors, 1u);
  EXPECT_EQ(slots[0].latency.count(), 2u);
  EXPECT_EQ(slots[1].counters.count, 5u);

  std::vector<LatencyHistogram> uncorrected(3);
  uncorrected[2].Record(7);
  const auto folded = FoldIntoRows(rows, uncorrected);
  ASSERT_EQ(folded.size(), 2u);
  EXPECT_EQ(folded[0].count(), 1u);
  EXPECT_TRUE(FoldIntoRows(rows, std::vector<LatencyHistogram>{}).empty());
}

}  // namespace
}  // namespace dfbench::loadgen
