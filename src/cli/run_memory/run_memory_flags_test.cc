#include "cli/run_memory/run_memory_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

const BenchLine<RunMemoryFlags, &AddRunMemoryFlags, &ToRunMemoryOptions> kRunMemory("run-memory");

TEST(RunMemoryFlags, DefaultsAreTheScenariosOwn) {
  const auto o = kRunMemory.OptionsOf({});
  using M = scenarios::MemoryOptions;
  ExpectSameFields(o, M{}, &M::keys, &M::snapshot_delay, &M::snapshot_timeout, &M::update_rate,
                   &M::test_time, &M::trials, &M::max_error_pct, &M::cooldown);
  EXPECT_EQ(o.keys, 1000000U);
  EXPECT_EQ(o.engines.size(), 3U);
  EXPECT_EQ(o.snapshot, scenarios::SnapshotMode::kBgsave);
  EXPECT_EQ(o.snapshot_dir, "");
  ExpectLoad(o.load, {.threads = 2,
                      .clients = 10,
                      .pipeline = 1,
                      .data_size = 1024,
                      .ratio = {.set = 1, .get = 0}});
}

TEST(RunMemoryFlags, CountsTakeSuffixesAndDurationsTheirUnits) {
  const auto o =
      kRunMemory.OptionsOf({"--keys", "500k", "--update-rate", "2.5M", "--snapshot-delay", "2m",
                            "--test-time", "1h", "--snapshot-timeout", "30m", "--cooldown", "2s"});
  EXPECT_EQ(o.keys, 500000U);
  EXPECT_EQ(o.update_rate, 2500000.0);
  EXPECT_EQ(o.snapshot_delay, std::chrono::seconds(120));
  EXPECT_EQ(o.test_time, std::chrono::seconds(3600));
  EXPECT_EQ(o.snapshot_timeout, std::chrono::seconds(1800));
  EXPECT_EQ(o.cooldown, std::chrono::seconds(2));
  EXPECT_EQ(kRunMemory.OptionsOf({"--keys", "5M"}).keys, 5000000U);
  EXPECT_EQ(kRunMemory.OptionsOf({"--keys", "1_000"}).keys, 1000U);
}

TEST(RunMemoryFlags, EachFlagLandsInItsOption) {
  const auto o = kRunMemory.OptionsOf(
      Argv("--engines redis,memcached --snapshot none --snapshot-dir /srv/snap --value-size 64 "
           "--memtier-threads 3 --memtier-clients 4 --memtier-pipeline 5 --memtier-ratio 1:1 "
           "--trials 2 --max-error-pct 7 --valkey_io_threads 2"));
  ASSERT_EQ(o.engines.size(), 2U);
  EXPECT_EQ(o.engines[1]->name, "memcached");
  EXPECT_EQ(o.snapshot, scenarios::SnapshotMode::kNone);
  EXPECT_EQ(o.snapshot_dir, "/srv/snap");
  ExpectLoad(
      o.load,
      {.threads = 3, .clients = 4, .pipeline = 5, .data_size = 64, .ratio = {.set = 1, .get = 1}});
  EXPECT_EQ(o.trials, 2);
  EXPECT_EQ(o.max_error_pct, 7);
  EXPECT_EQ(o.tuning.valkey_io_threads, 2);
}

TEST(RunMemoryFlags, ShortAliasesLandAsTheirMemtierNames) {
  const auto o = kRunMemory.OptionsOf(
      {"--threads", "6", "--clients", "7", "--pipeline", "8", "--ratio", "2:1"});
  EXPECT_EQ(o.load.threads, 6);
  EXPECT_EQ(o.load.clients, 7);
  EXPECT_EQ(o.load.pipeline, 8);
  EXPECT_EQ(o.load.ratio.ToString(), "2:1");
}

TEST(RunMemoryFlags, TheScenariosCheckNamesTheFlags) {
  ExpectUsageError("--snapshot-delay (30s) must be shorter than --test-time (30s)", [] {
    return kRunMemory.OptionsOf({"--snapshot-delay", "30s", "--test-time", "30s"});
  });
  // Without a snapshot the delay is free.
  EXPECT_EQ(kRunMemory.OptionsOf({"--snapshot", "none", "--snapshot-delay", "40s"}).snapshot_delay,
            std::chrono::seconds(40));
  // Values the ranges keep off the command line, given to the rules directly.
  RunMemoryFlags keys;
  keys.keys = "0";
  ExpectUsageError("--keys must be at least 1", [&] { return ToRunMemoryOptions(keys); });
  RunMemoryFlags value_size;
  value_size.load.data_size = 0;
  ExpectUsageError("--value-size must be > 0", [&] { return ToRunMemoryOptions(value_size); });
  RunMemoryFlags trials;
  trials.trials = 0;
  ExpectUsageError("--trials must be at least 1", [&] { return ToRunMemoryOptions(trials); });
  RunMemoryFlags test_time;
  test_time.test_time = "500ms";
  test_time.snapshot = "none";
  ExpectUsageError("--test-time must be at least 1s",
                   [&] { return ToRunMemoryOptions(test_time); });
}

TEST(RunMemoryFlags, AnUnreadableValueIsNamedByItsFlag) {
  RunMemoryFlags keys;
  keys.keys = "lots";
  ExpectUsageErrorStartingWith("--keys: ", [&] { return ToRunMemoryOptions(keys); });
  RunMemoryFlags delay;
  delay.snapshot_delay = "soon";
  ExpectUsageErrorStartingWith("--snapshot-delay: ", [&] { return ToRunMemoryOptions(delay); });
}

TEST(RunMemoryFlags, RangesAndChoicesAreCheckedWhileParsing) {
  const std::string keys = kRunMemory.ParseErrorOf({"--keys", "0"});
  EXPECT_NE(keys.find("--keys \"0\""), std::string::npos) << keys;
  EXPECT_NE(kRunMemory.ParseErrorOf({"--snapshot", "save"}).find("save"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::cli
