#include "results/sweep_schema.h"

#include <gtest/gtest.h>

#include "results/json_util.h"
#include "results/test_fixtures.h"

namespace dfbench::results {
namespace {

using nlohmann::json;

SweepResults SampleSweep() {
  SweepResults r = testing::CompletedRun<SweepResults>("sw");
  r.settings.memtier.threads = 2;
  r.settings.memtier.clients = 10;
  r.settings.key_maximum = 10000;
  r.settings.step_time_sec = 2;
  r.settings.warmup_sec = 0.5;
  r.settings.fractions = {0.5, 1};
  r.settings.confirm = 1;
  r.objectives = {{.percentile = 99, .limit_ms = 2, .text = "p99<=2ms"},
                  {.percentile = 99.9, .limit_ms = 5, .text = "p99.9<=5ms"}};
  SweepEngine e;
  e.engine = "redis";
  e.version = "redis 7.0.15";
  e.capacity = 100000;
  e.found_rate = 50000;
  e.first_failing_rate = 100000;
  e.confirmation = {.round_rates = {50000, std::nullopt}, .min_rate = 50000, .max_rate = 50000};
  const std::vector<PercentileMs> latency = {{50, 0.2}, {90, 0.4}, {99, 1.5}, {99.9, 3}, {100, 7}};
  e.steps = {
      {.index = 1,
       .phase = StepPhase::kCapacity,
       .measured = {.achieved_rate = 100000, .latency = latency, .client_cpu = 0.95}},
      {.index = 2,
       .phase = StepPhase::kLadder,
       .target_rate = 50000,
       .measured = {.achieved_rate = 49990.5,
                    .latency = latency,
                    .client_cpu = 0.4,
                    .raw_file = "loadgen/redis-02-ladder.json"},
       .verdict = {.passed = true}},
      {.index = 3,
       .phase = StepPhase::kLadder,
       .target_rate = 100000,
       .measured = {.achieved_rate = 80000, .latency = latency, .errors = 2},
       .verdict = {.reason = "2 error(s)"}},
  };
  r.engines = {e};
  return r;
}

TEST(SweepSchema, RoundTripsThroughJson) {
  SweepResults back;
  ASSERT_TRUE(testing::RoundTrips(SampleSweep(), RenderSweepJson, &back));
  const std::string text = RenderSweepJson(back);  // the sample's text, as RoundTrips found
  EXPECT_EQ(text.find("\"scenario\": \"sweep\""), 4u) << text;
  EXPECT_NE(text.find("\"latency_ms\": {\n            \"p50\": 0.2,\n            \"p90\": 0.4,"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"max\": 7"), std::string::npos);
  EXPECT_NE(text.find("\"round_rates\": [\n          50000,\n          null\n        ]"),
            std::string::npos)
      << text;
  const auto& s = back.engines[0].steps[1];
  EXPECT_EQ(s.measured.LatencyAt(99.9), 3);
  EXPECT_EQ(s.measured.LatencyAt(100), 7);
  EXPECT_FALSE(s.measured.LatencyAt(75));
  EXPECT_FALSE(back.engines[0].confirmation.round_rates[1]);
  EXPECT_EQ(back.objectives[1].percentile, 99.9);
  // The send lag and the client-late mark, written only where the generator measured them.
  EXPECT_EQ(text.find("send_lag_ms"), std::string::npos);
  SweepResults late = SampleSweep();
  late.engines[0].steps[1].measured.send_lag = {{50, 0.01}, {99, 0.3}, {100, 0.9}};
  late.engines[0].steps[1].verdict.client_late = true;
  ASSERT_TRUE(testing::RoundTrips(late, RenderSweepJson, &back));
  EXPECT_EQ(back.engines[0].steps[1].measured.SendLagAt(99), 0.3);
  EXPECT_EQ(back.engines[0].steps[1].measured.SendLagAt(100), 0.9);
  EXPECT_TRUE(back.engines[0].steps[1].verdict.client_late);
}

TEST(SweepSchema, ReadingNamesTheBadField) {
  json j = json::parse(RenderSweepJson(SampleSweep()));
  std::string error;
  SweepResults out;
  j["engines"][0]["steps"][1]["latency_ms"]["p99"] = "slow";
  EXPECT_FALSE(FromJson(j, &out, &error));
  EXPECT_EQ(error, "engines[0].steps[1].latency_ms.p99: expected a number");
  j = json::parse(RenderSweepJson(SampleSweep()));
  j["engines"][0]["found_rate"] = "fast";
  EXPECT_FALSE(FromJson(j, &out, &error));
  EXPECT_EQ(error, "engines[0].found_rate: expected a number");
  j = json::parse(RenderSweepJson(SampleSweep()));
  j["scenario"] = "replication";
  EXPECT_FALSE(FromJson(j, &out, &error));
  EXPECT_NE(error.find("expected \"sweep\""), std::string::npos);
}

TEST(SweepSchema, TableAndCsvShowEveryStep) {
  const SweepResults r = SampleSweep();
  const std::string table = RenderSweepTable(r);
  EXPECT_NE(table.find("sweep 20260408-143217 · p99<=2ms, p99.9<=5ms · 2 threads × 10 clients"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("MAX RATE IN SLO"), std::string::npos);
  EXPECT_NE(table.find("50,000"), std::string::npos);
  EXPECT_NE(table.find("closed loop"), std::string::npos);
  EXPECT_NE(table.find("fail: 2 error(s)"), std::string::npos) << table;
  // The confirmation round that sustained no rate is said.
  EXPECT_NE(table.find("1 of 2 rounds sustained no rate"), std::string::npos) << table;
  const std::string csv = RenderSweepCsv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "engine,version,step,phase,target_rate,achieved_rate,p50,p90,p99,p999,max,errors,"
            "client_cpu,passed,client_limited,client_late,reason,raw_file");
  EXPECT_NE(
      csv.find("redis,redis 7.0.15,2,ladder,50000,49990.5,0.2,0.4,1.5,3,7,0,0.4,true,false,false,,"
               "loadgen/redis-02-ladder.json\n"),
      std::string::npos)
      << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
}

}  // namespace
}  // namespace dfbench::results
