#include "cli/sweep/sweep_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

const BenchLine<SweepFlags, &AddSweepFlags, &ToSweepOptions> kSweep("sweep");

TEST(SweepFlags, DefaultsAreTheReferencesRunLoadAndAStrictSearch) {
  const auto o = kSweep.OptionsOf({"--slo", "p99<=1ms"});
  ASSERT_EQ(o.engines.size(), 3U);
  EXPECT_EQ(o.engines[0]->name, "dragonfly");
  ExpectLoad(o.load, kReferenceRunLoad);  // key_maximum 0: the load generator's range
  EXPECT_EQ(o.step_time, std::chrono::seconds(10));
  EXPECT_EQ(o.search.confirm, 2);
  EXPECT_EQ(o.search.max_error_pct, 0);
  EXPECT_EQ(o.cooldown, std::chrono::seconds(30));
  ASSERT_EQ(o.objectives.size(), 1U);
  EXPECT_EQ(o.objectives[0].percentile, 99);
  EXPECT_EQ(o.objectives[0].limit_ms, 1);
  EXPECT_EQ(o.driver, nullptr);
}

TEST(SweepFlags, EachFlagLandsInItsOption) {
  const auto o = kSweep.OptionsOf(
      Argv("--slo p99<=1ms --slo p99.9<=500us --engines redis --memtier-threads 2 "
           "--memtier-clients 3 --memtier-pipeline 4 --memtier-data-size 64 --memtier-ratio 1:3 "
           "--distinct-client-seed --key-maximum 5000 --step-time 3s --confirm 0 "
           "--max-error-pct 1.5 --cooldown 500ms --redis_io_threads 3"));
  ASSERT_EQ(o.engines.size(), 1U);
  EXPECT_EQ(o.engines[0]->name, "redis");
  ExpectLoad(o.load, {.threads = 2,
                      .clients = 3,
                      .pipeline = 4,
                      .data_size = 64,
                      .distinct_client_seed = true,
                      .ratio = {.set = 1, .get = 3},
                      .key_maximum = 5000});
  EXPECT_EQ(o.step_time, std::chrono::seconds(3));
  EXPECT_EQ(o.search.confirm, 0);
  EXPECT_EQ(o.search.max_error_pct, 1.5);
  EXPECT_EQ(o.cooldown, std::chrono::milliseconds(500));
  EXPECT_EQ(o.tuning.redis_io_threads, 3);
  ASSERT_EQ(o.objectives.size(), 2U);
  EXPECT_EQ(o.objectives[1].percentile, 99.9);
  EXPECT_EQ(o.objectives[1].limit_ms, 0.5);
  EXPECT_EQ(o.objectives[1].text, "p99.9<=500us");
}

TEST(SweepFlags, StepTimeTakesWholeSecondsOnly) {
  EXPECT_EQ(ToStepTime("2m"), std::chrono::seconds(120));
  EXPECT_EQ(ToStepTime("1s"), std::chrono::seconds(1));
  ExpectUsageError("--step-time \"1500ms\": use whole seconds, at least 1s (e.g. 10s)",
                   [] { return ToStepTime("1500ms"); });
  ExpectUsageError("--step-time \"500ms\": use whole seconds, at least 1s (e.g. 10s)",
                   [] { return ToStepTime("500ms"); });
}

TEST(SweepFlags, ABadObjectiveIsNamedWithSlo) {
  const auto error = ExpectUsageErrorOf([] { return kSweep.OptionsOf({"--slo", "p99<1ms"}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message.rfind("--slo \"p99<1ms\"", 0), 0U) << error->message;
  EXPECT_EQ(error->message.find('\n'), std::string::npos);
}

TEST(SweepFlags, ABadRatioOrEngineIsOneUsageLine) {
  ExpectUsageErrorNaming("1-3", [] {
    return kSweep.OptionsOf({"--slo", "p99<=1ms", "--memtier-ratio", "1-3"});
  });
  ExpectUsageErrorNaming("redix", [] {
    return kSweep.OptionsOf({"--slo", "p99<=1ms", "--engines", "redix"});
  });
}

TEST(SweepFlags, SloIsRequiredAndRangesAreCheckedWhileParsing) {
  EXPECT_NE(kSweep.ParseErrorOf({}).find("--slo"), std::string::npos);
  const std::string confirm = kSweep.ParseErrorOf({"--slo", "p99<=1ms", "--confirm", "-1"});
  EXPECT_NE(confirm.find("--confirm \"-1\""), std::string::npos) << confirm;
}

}  // namespace
}  // namespace dfbench::cli
