#include "scenarios/memory/snapshot_deadline.h"

#include <gtest/gtest.h>

namespace dfbench::scenarios {
namespace {

using std::chrono::seconds;

TEST(SnapshotLimit, GivenWins) {
  EXPECT_EQ(SnapshotLimit(100'000'000, 1024, seconds(90)), seconds(90));
}

TEST(SnapshotLimit, DerivedGrowsWithTheDataSet) {
  // Small data sets get the floor (plus a second for the bytes begun).
  EXPECT_EQ(SnapshotLimit(1, 1, seconds(0)), kSnapshotLimitFloor + seconds(1));
  // 1M x 1 KiB = 1 GiB at 4 MiB/s: 256 s over the floor.
  EXPECT_EQ(SnapshotLimit(1 << 20, 1024, seconds(0)), kSnapshotLimitFloor + seconds(256));
  // Ten times the data, ten times the writing.
  EXPECT_EQ(SnapshotLimit(10 << 20, 1024, seconds(0)), kSnapshotLimitFloor + seconds(2560));
  // 100M keys of 1 KiB (about 100 GB) are allowed hours, not the hour a fixed limit gave.
  EXPECT_GT(SnapshotLimit(100'000'000, 1024, seconds(0)), seconds(6 * 3600));
}

TEST(SnapshotStuckMessage, NamesTheSignalTheLimitAndWhatTheEngineShowed) {
  const std::string derived = SnapshotStuckMessage(
      seconds(376), false, "saving:1, current_snapshot_perc:42.5, last_error:");
  EXPECT_EQ(derived,
            "the snapshot did not end within 376s (derived from keys x value size; "
            "the snapshot timeout sets it): waited for INFO persistence to show no save in "
            "progress, it last showed saving:1, current_snapshot_perc:42.5, last_error:");
  EXPECT_NE(SnapshotStuckMessage(seconds(5), true, "rdb_bgsave_in_progress:1")
                .find("within 5s (the snapshot timeout)"),
            std::string::npos);
  EXPECT_NE(SnapshotStuckMessage(seconds(5), true, "").find("it last showed no save fields"),
            std::string::npos);
}

}  // namespace
}  // namespace dfbench::scenarios
