#include "cli/run_memory_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

void AddRunMemoryLine(CLI::App* sub, RunMemoryFlags* f) {
  AddBenchTargetFlags(sub, &f->target, {});
  AddRunMemoryFlags(sub, f);
}

ParsedFlags<RunMemoryFlags> ParseRunMemory(std::vector<std::string> args) {
  args.insert(args.end(), {"--id", "m"});
  return ParseFlags("run-memory", &AddRunMemoryLine, std::move(args));
}

scenarios::MemoryOptions RunMemoryOf(std::vector<std::string> args) {
  return ToRunMemoryOptions(*ParseRunMemory(std::move(args)));
}

TEST(RunMemoryFlags, DefaultsAreTheScenariosOwn) {
  const auto o = RunMemoryOf({});
  const scenarios::MemoryOptions d;
  EXPECT_EQ(o.engines.size(), 3U);
  EXPECT_EQ(o.keys, d.keys);
  EXPECT_EQ(o.keys, 1000000U);
  EXPECT_EQ(o.snapshot, scenarios::SnapshotMode::kBgsave);
  EXPECT_EQ(o.snapshot_dir, "");
  EXPECT_EQ(o.snapshot_delay, d.snapshot_delay);
  EXPECT_EQ(o.snapshot_timeout, d.snapshot_timeout);
  EXPECT_EQ(o.update_rate, d.update_rate);
  EXPECT_EQ(o.test_time, d.test_time);
  EXPECT_EQ(o.trials, d.trials);
  EXPECT_EQ(o.max_error_pct, d.max_error_pct);
  EXPECT_EQ(o.cooldown, d.cooldown);
  ExpectLoad(o.load,
             {.threads = 2, .clients = 10, .pipeline = 1, .data_size = 1024, .ratio = "1:0"});
}

TEST(RunMemoryFlags, CountsTakeSuffixesAndDurationsTheirUnits) {
  const auto o =
      RunMemoryOf({"--keys", "500k", "--update-rate", "2.5M", "--snapshot-delay", "2m",
                   "--test-time", "1h", "--snapshot-timeout", "30m", "--cooldown", "2s"});
  EXPECT_EQ(o.keys, 500000U);
  EXPECT_EQ(o.update_rate, 2500000.0);
  EXPECT_EQ(o.snapshot_delay, std::chrono::seconds(120));
  EXPECT_EQ(o.test_time, std::chrono::seconds(3600));
  EXPECT_EQ(o.snapshot_timeout, std::chrono::seconds(1800));
  EXPECT_EQ(o.cooldown, std::chrono::seconds(2));
  EXPECT_EQ(RunMemoryOf({"--keys", "5M"}).keys, 5000000U);
  EXPECT_EQ(RunMemoryOf({"--keys", "1_000"}).keys, 1000U);
}

TEST(RunMemoryFlags, EachFlagLandsInItsOption) {
  const auto o = RunMemoryOf({"--engines",
                              "redis,memcached",
                              "--snapshot",
                              "none",
                              "--snapshot-dir",
                              "/srv/snap",
                              "--value-size",
                              "64",
                              "--memtier-threads",
                              "3",
                              "--memtier-clients",
                              "4",
                              "--memtier-pipeline",
                              "5",
                              "--memtier-ratio",
                              "1:1",
                              "--trials",
                              "2",
                              "--max-error-pct",
                              "7",
                              "--valkey_io_threads",
                              "2"});
  ASSERT_EQ(o.engines.size(), 2U);
  EXPECT_EQ(o.engines[1]->name, "memcached");
  EXPECT_EQ(o.snapshot, scenarios::SnapshotMode::kNone);
  EXPECT_EQ(o.snapshot_dir, "/srv/snap");
  ExpectLoad(o.load, {.threads = 3, .clients = 4, .pipeline = 5, .data_size = 64, .ratio = "1:1"});
  EXPECT_EQ(o.trials, 2);
  EXPECT_EQ(o.max_error_pct, 7);
  EXPECT_EQ(o.tuning.valkey_io_threads, 2);
}

TEST(RunMemoryFlags, ShortAliasesLandAsTheirMemtierNames) {
  const auto o =
      RunMemoryOf({"--threads", "6", "--clients", "7", "--pipeline", "8", "--ratio", "2:1"});
  EXPECT_EQ(o.load.threads, 6);
  EXPECT_EQ(o.load.clients, 7);
  EXPECT_EQ(o.load.pipeline, 8);
  EXPECT_EQ(o.load.ratio, "2:1");
}

TEST(RunMemoryFlags, TheScenariosCheckNamesTheFlags) {
  ExpectExitError(
      [] {
        return RunMemoryOf({"--snapshot-delay", "30s", "--test-time", "30s"});
      },
      core::ErrorKind::kUsage, "--snapshot-delay (30s) must be shorter than --test-time (30s)");
  // Without a snapshot the delay is free.
  EXPECT_EQ(RunMemoryOf({"--snapshot", "none", "--snapshot-delay", "40s"}).snapshot_delay,
            std::chrono::seconds(40));
  // Values the ranges keep off the command line, given to the rules directly.
  RunMemoryFlags keys;
  keys.keys = "0";
  ExpectExitError([&] { return ToRunMemoryOptions(keys); }, core::ErrorKind::kUsage,
                  "--keys must be at least 1");
  RunMemoryFlags value_size;
  value_size.load.data_size = 0;
  ExpectExitError([&] { return ToRunMemoryOptions(value_size); }, core::ErrorKind::kUsage,
                  "--value-size must be > 0");
  RunMemoryFlags trials;
  trials.trials = 0;
  ExpectExitError([&] { return ToRunMemoryOptions(trials); }, core::ErrorKind::kUsage,
                  "--trials must be at least 1");
  RunMemoryFlags test_time;
  test_time.test_time = "500ms";
  test_time.snapshot = "none";
  ExpectExitError([&] { return ToRunMemoryOptions(test_time); }, core::ErrorKind::kUsage,
                  "--test-time must be at least 1s");
}

TEST(RunMemoryFlags, AnUnreadableValueIsNamedByItsFlag) {
  RunMemoryFlags keys;
  keys.keys = "lots";
  const auto error = ExitErrorOf([&] { return ToRunMemoryOptions(keys); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, core::ErrorKind::kUsage);
  EXPECT_EQ(error->message.rfind("--keys: ", 0), 0U) << error->message;
  RunMemoryFlags delay;
  delay.snapshot_delay = "soon";
  const auto delay_error = ExitErrorOf([&] { return ToRunMemoryOptions(delay); });
  ASSERT_TRUE(delay_error.has_value());
  EXPECT_EQ(delay_error->message.rfind("--snapshot-delay: ", 0), 0U) << delay_error->message;
}

TEST(RunMemoryFlags, RangesAndChoicesAreCheckedWhileParsing) {
  const std::string keys =
      ParseErrorOf("run-memory", &AddRunMemoryLine, {"--id", "m", "--keys", "0"});
  EXPECT_NE(keys.find("--keys \"0\""), std::string::npos) << keys;
  EXPECT_NE(ParseErrorOf("run-memory", &AddRunMemoryLine, {"--id", "m", "--snapshot", "save"})
                .find("save"),
            std::string::npos);
}

}  // namespace
}  // namespace dfbench::cli
