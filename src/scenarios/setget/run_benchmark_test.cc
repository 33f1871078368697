// The `run` scenario on a local setup with a real redis-server and a load generator whose
// trials the test scripts (support/scripted_driver.h): the figures a run records, the
// summaries it makes of them, and what a failed, short-counted or interrupted trial does.
#include "scenarios/setget/run_benchmark.h"

#include <gtest/gtest.h>

#include "core/log.h"
#include "scenarios/setup/lifecycle.h"
#include "state/state.h"
#include "support/dfbench_home.h"
#include "support/scripted_driver.h"
#include "support/test_data.h"

namespace dfbench::scenarios {
namespace {

using dfbench::testing::ScriptedDriver;
using dfbench::testing::ScriptedTrial;
using nlohmann::json;

// A trial's figures: `throughput` ops/s, `ms` the p50 (p99 ten times it, p99.9 twenty times,
// the average twice), `ops` answered in one second.
ScriptedTrial Trial(double throughput, double ms, uint64_t ops) {
  return {.result = {.throughput = throughput,
                     .p50 = ms,
                     .p99 = 10 * ms,
                     .p999 = 20 * ms,
                     .avg_latency = 2 * ms,
                     .ops = ops,
                     .duration_sec = 1}};
}

class RunBenchmarkTest : public dfbench::testing::DfbenchHomeTest {
 protected:
  void SetUp() override {
    DfbenchHomeTest::SetUp();
    core::SetQuiet(true);
    SetupOptions o;
    o.id = "scripted";
    o.engines = {engines::FindEngine("redis")};
    o.pin_cpus = false;
    auto setup = CreateSetup(o);
    ASSERT_TRUE(setup) << setup.error().message;
  }
  void TearDown() override {
    core::SetQuiet(false);
    DfbenchHomeTest::TearDown();
  }

  // Runs `trials` trials with `driver` and returns the run's status (the exit code stands for
  // it); results_ is the run's file.
  std::optional<results::RunStatus> Run(ScriptedDriver* driver, int trials) {
    SetGetOptions o;
    o.engines = {engines::FindEngine("redis")};
    o.load.threads = 1;
    o.load.clients = 1;
    o.requests = 100;
    o.warmup_requests = 0;
    o.trials = trials;
    o.cooldown = std::chrono::milliseconds(0);
    o.driver = driver;
    auto outcome = SetGetOnSetup("scripted", o);
    EXPECT_TRUE(outcome) << outcome.error().message;
    auto s = state::Load("scripted");
    EXPECT_TRUE(s && !s->benchmarks.empty());
    if (s && !s->benchmarks.empty()) {
      results_ =
          dfbench::testing::ReadJson(state::SetupDir("scripted") / s->benchmarks.back().path);
    }
    if (!outcome) return std::nullopt;
    return outcome->status();
  }

  json results_;
};

TEST_F(RunBenchmarkTest, SummariesAreTheMediansOfTheTrials) {
  ScriptedDriver driver(
      {Trial(100000, 0.1, 300), Trial(300000, 0.3, 500), Trial(200000, 0.2, 400)});
  EXPECT_EQ(Run(&driver, 3), results::RunStatus::kCompleted);
  EXPECT_EQ(driver.runs(), 3u);
  EXPECT_EQ(results_["status"], "completed");
  const json& redis = results_["engines"][0];
  ASSERT_EQ(redis["trials"].size(), 3u) << results_.dump(2);
  EXPECT_EQ(redis["trials"][1]["throughput"], 300000);
  EXPECT_EQ(redis["trials"][1]["ops"], 500);
  EXPECT_EQ(redis["trials"][1]["server_ops"], 500);
  EXPECT_EQ(redis["server_ops"], 1200);
  EXPECT_EQ(redis["throughput"],
            (json{{"median", 200000}, {"min", 100000}, {"max", 300000}, {"stddev", 100000}}));
  EXPECT_EQ(redis["p99"], (json{{"median", 2}, {"min", 1}, {"max", 3}, {"stddev", 1}}));
  EXPECT_EQ(redis["p999"]["median"], 4);
  EXPECT_DOUBLE_EQ(redis["p50"]["median"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(redis["avg_latency"]["median"].get<double>(), 0.4);
}

TEST_F(RunBenchmarkTest, ATrialTheServerCountedFewerOpsForFailsAndLeavesTheSummaries) {
  ScriptedTrial short_counted = Trial(900000, 0.9, 400);
  short_counted.sent = 399;  // one answered operation the server never ran
  ScriptedDriver driver({Trial(100000, 0.1, 300), short_counted, Trial(200000, 0.2, 400)});
  EXPECT_EQ(Run(&driver, 3), results::RunStatus::kFailed);
  EXPECT_EQ(results_["status"], "failed");
  const json& redis = results_["engines"][0];
  ASSERT_EQ(redis["trials"].size(), 3u) << results_.dump(2);
  EXPECT_EQ(redis["trials"][1]["server_ops"], 399);
  EXPECT_NE(redis["trials"][1].value("failed", ""), "");
  EXPECT_EQ(redis["trials"][0].value("failed", ""), "");
  EXPECT_EQ(redis["throughput"]["median"], 150000);  // of the two that passed
  EXPECT_EQ(redis["throughput"]["max"], 200000);
}

TEST_F(RunBenchmarkTest, ATrialWithMoreFailedRequestsThanAllowedFails) {
  ScriptedTrial erring = Trial(100000, 0.1, 990);
  erring.result.errors = 11;  // 1.1% of 1,001 requests; 1% may fail
  ScriptedDriver driver({erring, Trial(100000, 0.1, 990)});
  EXPECT_EQ(Run(&driver, 2), results::RunStatus::kFailed);
  const json& redis = results_["engines"][0];
  ASSERT_EQ(redis["trials"].size(), 2u) << results_.dump(2);
  EXPECT_NE(redis["trials"][0].value("failed", ""), "");
  EXPECT_EQ(redis["trials"][1].value("failed", ""), "");
}

TEST_F(RunBenchmarkTest, AnInterruptedTrialEndsTheRunAndKeepsTheTrialsBeforeIt) {
  ScriptedTrial interrupted = Trial(100000, 0.1, 10);
  interrupted.error = core::Error{core::ErrorKind::kInterrupted, "interrupted"};
  ScriptedDriver driver({Trial(100000, 0.1, 300), interrupted, Trial(100000, 0.1, 300)});
  EXPECT_EQ(Run(&driver, 3), results::RunStatus::kInterrupted);
  EXPECT_EQ(driver.runs(), 2u);
  EXPECT_EQ(results_["status"], "interrupted");
  const json& redis = results_["engines"][0];
  ASSERT_EQ(redis["trials"].size(), 1u) << results_.dump(2);
  EXPECT_EQ(redis["trials"][0]["ops"], 300);
}

TEST_F(RunBenchmarkTest, AGeneratorThatFailsEndsItsEngineAndFailsTheRun) {
  ScriptedTrial broken = Trial(100000, 0.1, 0);
  broken.error = core::Error{core::ErrorKind::kFailure, "the generator crashed"};
  ScriptedDriver driver({Trial(100000, 0.1, 300), broken, Trial(200000, 0.1, 300)});
  EXPECT_EQ(Run(&driver, 3), results::RunStatus::kFailed);
  EXPECT_EQ(driver.runs(), 2u);  // the engine's turn ends with its generator
  EXPECT_EQ(results_["status"], "failed");
  const json& redis = results_["engines"][0];
  EXPECT_EQ(redis["error"], "trial 2: the generator crashed");
  ASSERT_EQ(redis["trials"].size(), 1u) << results_.dump(2);
  EXPECT_EQ(redis["throughput"]["median"], 100000);
}

}  // namespace
}  // namespace dfbench::scenarios
