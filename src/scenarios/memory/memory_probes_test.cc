#include "scenarios/memory/memory_probes.h"

#include <gtest/gtest.h>

namespace dfbench::scenarios {
namespace {

TEST(ParsePersistence, RedisInProgressFailedAndDuration) {
  auto s = ParsePersistence(
      "# Persistence\r\nloading:0\r\nrdb_bgsave_in_progress:1\r\nrdb_last_bgsave_status:ok\r\n"
      "rdb_last_bgsave_time_sec:-1\r\n");
  EXPECT_TRUE(s.in_progress);
  EXPECT_FALSE(s.last_failed);
  EXPECT_EQ(s.last_duration_sec, 0);  // -1: none yet
  s = ParsePersistence(
      "rdb_bgsave_in_progress:0\r\nrdb_last_bgsave_status:err\r\nrdb_last_bgsave_time_sec:3\r\n");
  EXPECT_FALSE(s.in_progress);
  EXPECT_TRUE(s.last_failed);
  EXPECT_EQ(s.last_duration_sec, 3);
}

TEST(ParsePersistence, DragonflyFailureIsTheLaterOfTheTwo) {
  auto s = ParsePersistence(
      "saving:0\r\nlast_success_save:1700000100\r\nlast_success_save_duration_sec:2\r\n"
      "last_failed_save:1700000000\r\nlast_error:No space left on device\r\n");
  EXPECT_FALSE(s.last_failed);
  EXPECT_EQ(s.last_duration_sec, 2);
  s = ParsePersistence(
      "saving:1\r\nlast_success_save:0\r\nlast_failed_save:1700000200\r\n"
      "last_error:Read-only file system\r\n");
  EXPECT_TRUE(s.in_progress);
  EXPECT_TRUE(s.last_failed);
  EXPECT_EQ(s.last_error, "Read-only file system");
}

// INFO persistence of Dragonfly v1.40 a moment after its BGSAVE ended: `saving` is back to 0
// while rdb_bgsave_in_progress stays 1 (for good); the save is over.
TEST(ParsePersistence, DragonflySavingAloneTells) {
  const std::string during =
      "# Persistence\r\ncurrent_snapshot_perc:2.765\r\ncurrent_save_keys_processed:2765\r\n"
      "current_save_keys_total:100000\r\nlast_success_save:1796174849\r\nlast_saved_file:\r\n"
      "last_success_save_duration_sec:0\r\nloading:0\r\nsaving:1\r\n"
      "current_save_duration_sec:0\r\nrdb_changes_since_last_success_save:100000\r\n"
      "rdb_bgsave_in_progress:1\r\nrdb_last_bgsave_status:ok\r\nlast_failed_save:0\r\n"
      "last_error:\r\nlast_failed_save_duration_sec:0\r\n";
  auto s = ParsePersistence(during);
  EXPECT_TRUE(s.in_progress);
  EXPECT_FALSE(s.last_failed);
  const std::string after =
      "# Persistence\r\ncurrent_snapshot_perc:0\r\ncurrent_save_keys_processed:0\r\n"
      "current_save_keys_total:0\r\nlast_success_save:1796174850\r\n"
      "last_saved_file:/tmp/snap/dfbench-x-summary.dfs\r\nlast_success_save_duration_sec:1\r\n"
      "loading:0\r\nsaving:0\r\ncurrent_save_duration_sec:0\r\nrdb_string:100000\r\n"
      "rdb_changes_since_last_success_save:0\r\nrdb_bgsave_in_progress:1\r\n"
      "rdb_last_bgsave_status:ok\r\nlast_failed_save:0\r\nlast_error:\r\n"
      "last_failed_save_duration_sec:0\r\n";
  s = ParsePersistence(after);
  EXPECT_FALSE(s.in_progress);
  EXPECT_FALSE(s.last_failed);
  EXPECT_EQ(s.last_duration_sec, 1);
  // What a message about a stuck save quotes: the save's fields, in the engine's order.
  EXPECT_EQ(ParsePersistence(during).progress,
            "current_snapshot_perc:2.765, current_save_keys_processed:2765, "
            "current_save_keys_total:100000, saving:1, current_save_duration_sec:0, "
            "rdb_bgsave_in_progress:1, rdb_last_bgsave_status:ok, last_error:");
}

TEST(ParsePersistence, RedisProgress) {
  EXPECT_EQ(ParsePersistence("# Persistence\r\nloading:0\r\ncurrent_save_keys_processed:10\r\n"
                             "current_save_keys_total:20\r\nrdb_bgsave_in_progress:1\r\n"
                             "rdb_last_bgsave_status:ok\r\nrdb_current_bgsave_time_sec:3\r\n")
                .progress,
            "current_save_keys_processed:10, current_save_keys_total:20, "
            "rdb_bgsave_in_progress:1, rdb_last_bgsave_status:ok, rdb_current_bgsave_time_sec:3");
  EXPECT_EQ(ParsePersistence("").progress, "");
}

TEST(SnapshotFailureLine, TheNewLineThatSaysItFailed) {
  const std::string before = "1:M 01 Dec 10:00:00.000 * Ready to accept connections tcp\n";
  const std::string after =
      before +
      "1:M 01 Dec 10:00:05.000 * Background saving started by pid 7\n"
      "7:C 01 Dec 10:00:05.001 # Failed opening the RDB file d (in server root dir /x) for "
      "saving: Read-only file system\n"
      "1:M 01 Dec 10:00:05.100 # Background saving error\n";
  EXPECT_EQ(SnapshotFailureLine(before, after),
            "7:C 01 Dec 10:00:05.001 # Failed opening the RDB file d (in server root dir /x) for "
            "saving: Read-only file system");
  EXPECT_EQ(SnapshotFailureLine(before, before + "something else\n"), "something else");
  EXPECT_EQ(SnapshotFailureLine(before, before), "");
}

}  // namespace
}  // namespace dfbench::scenarios
