#include "drivers/load_report.h"

#include <gtest/gtest.h>

#include "core/files.h"

namespace dfbench::drivers {
namespace {

std::string Fixture(const std::string& name) {
  auto text = core::ReadFile(std::string(DFBENCH_FIXTURES_DIR) + "/peers/" + name);
  EXPECT_TRUE(text) << name;
  return text.value_or("");
}

// Totals.Count of each fixture, from the fixtures' README.
TEST(LoadReport, MemtierFixturesYieldTheirTotals) {
  struct Case {
    const char* file;
    uint64_t count;
    std::optional<double> test_time;
  } cases[] = {
      {"memtier_a_set_pipeline30.json", 1088370, 3},
      {"memtier_b0_preload.json", 10010, std::nullopt},
      {"memtier_b1_get_only.json", 114528, 3},
      {"memtier_c_1to10_distinct_seed.json", 96652, 3},
      {"memtier_d_lpush_command.json", 10000, std::nullopt},
      {"memtier_e_memcache_text.json", 102005, 3},
      {"memtier_f_percentiles_hdr.json", 111852, 3},
  };
  for (const auto& c : cases) {
    auto t = ParseLoadReport(Fixture(c.file), {.test_time_sec = c.test_time});
    ASSERT_TRUE(t) << c.file << ": " << t.error().message;
    EXPECT_EQ(t->ops, c.count) << c.file;
    EXPECT_GT(t->p50, 0) << c.file;
    EXPECT_GE(t->p99, t->p50) << c.file;
    EXPECT_GE(t->p999, t->p99) << c.file;
    EXPECT_GT(t->avg_latency, 0) << c.file;
    if (c.test_time) {
      // Count over the test time, not memtier's sometimes-wrong duration.
      EXPECT_DOUBLE_EQ(t->throughput, static_cast<double>(c.count) / *c.test_time) << c.file;
    }
  }
}

TEST(LoadReport, DurationFromRuntimeWhenNoTestTime) {
  auto t = ParseLoadReport(Fixture("memtier_b0_preload.json"));
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->duration_sec, 0.473);
  EXPECT_NEAR(t->throughput, 10010 / 0.473, 1e-6);
}

TEST(LoadReport, AverageIsWeightedOverCommandsNotMemtiersTruncatedTotal) {
  // memtier_c: Sets 8795 at 0.630 ms, Gets 87857 at 0.618 ms, Totals says 0.0.
  auto t = ParseLoadReport(Fixture("memtier_c_1to10_distinct_seed.json"), {.test_time_sec = 3});
  ASSERT_TRUE(t);
  EXPECT_NEAR(t->avg_latency, (8795 * 0.630 + 87857 * 0.618) / 96652, 1e-9);
}

TEST(LoadReport, MultiRunUsesAggregatedSection) {
  auto t = ParseLoadReport(Fixture("memtier_g_two_runs_print_all.json"));
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_GT(t->ops, 0u);
}

TEST(LoadReport, MalformedReportsAreInputErrors) {
  for (const char* bad :
       {"", "{", "[]", "{\"ALL STATS\": {}}", "{\"ALL STATS\": {\"Totals\": {\"Ops/sec\": 1}}}"}) {
    auto t = ParseLoadReport(bad);
    ASSERT_FALSE(t) << bad;
    EXPECT_EQ(t.error().kind, core::ErrorKind::kUsage) << bad;
  }
}

TEST(LoadReport, ReadsOurExtensionBlock) {
  auto t = ParseLoadReport(R"({
    "ALL STATS": {"Runtime": {"Total duration": 2000},
                  "Totals": {"Count": 1000, "Average Latency": 0.5,
                             "Percentile Latencies": {"p50.00": 0.4, "p99.00": 0.9,
                                                      "p99.90": 1.5}}},
    "dfbench": {"errors": 7}})");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->ops, 1000u);
  EXPECT_DOUBLE_EQ(t->throughput, 500);
  EXPECT_DOUBLE_EQ(t->p999, 1.5);
  EXPECT_EQ(t->errors, 7u);
  EXPECT_TRUE(t->ended_early.empty());
}

// A window the server cut short: the trial carries why and when, for TrialFailure to judge.
TEST(LoadReport, ReadsAnEarlyEnd) {
  auto t = ParseLoadReport(R"json({
    "ALL STATS": {"Runtime": {"Total duration": 4000}, "Totals": {"Count": 1000}},
    "dfbench": {"errors": 40, "ended_early": {"at_sec": 1.491,
                "reason": "a connection was lost (Connection reset by peer)"}}})json");
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->throughput, 250);  // over the whole window
  EXPECT_EQ(t->errors, 40u);
  EXPECT_EQ(t->ended_early, "a connection was lost (Connection reset by peer) at 1.49 s of 4.00 s");
  EXPECT_TRUE(ParseLoadReport(R"({"ALL STATS": {"Totals": {"Count": 1}},
                                  "dfbench": {"ended_early": null}})")
                  ->ended_early.empty());
}

TEST(LoadReport, StepMeasurementTakesTheAskedPercentilesTheMaximumAndTheClientCpu) {
  const std::string report = R"({
    "ALL STATS": {"Runtime": {"Total duration": 2000},
                  "Totals": {"Count": 1000, "Max Latency": 7.5,
                             "Percentile Latencies": {"p50.00": 0.4, "p90.00": 0.6,
                                                      "p99.00": 0.9, "p99.90": 1.5}}},
    "dfbench": {"errors": 2, "client_cpu": {"utilization": 0.42}}})";
  auto m = ParseStepMeasurement(report, {50, 90, 99, 99.9, 99.99});
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_DOUBLE_EQ(m->achieved_rate, 500);
  EXPECT_EQ(m->errors, 2u);
  EXPECT_DOUBLE_EQ(m->client_cpu, 0.42);
  ASSERT_EQ(m->latency.size(), 5u);  // 99.99 is not in the report
  EXPECT_EQ(m->LatencyAt(90), 0.6);
  EXPECT_EQ(m->LatencyAt(99.9), 1.5);
  EXPECT_EQ(m->LatencyAt(100), 7.5);
  EXPECT_FALSE(m->LatencyAt(99.99));
  EXPECT_FALSE(ParseStepMeasurement("{}", {50}));
}

}  // namespace
}  // namespace dfbench::drivers
