// `sweep` end to end on a local setup with a real redis-server and the built-in load generator
// (this binary): files, history, status, and the search's record, with 1 s steps and a short
// ladder. Assertions are on structure and on the rules, never on the rates measured.
#include <gtest/gtest.h>

#include "core/log.h"
#include "drivers/builtin_driver.h"
#include "scenarios/lifecycle.h"
#include "scenarios/sweep.h"
#include "state/state.h"
#include "support/dfbench_home.h"
#include "support/test_data.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;
using dfbench::testing::ReadJson;

class SweepFlowTest : public dfbench::testing::DfbenchHomeTest {
 protected:
  void SetUp() override {
    DfbenchHomeTest::SetUp();
    core::SetQuiet(true);
  }
  void TearDown() override {
    core::SetQuiet(false);
    DfbenchHomeTest::TearDown();
  }

  // Two rungs far below capacity and one confirmation round, 1 s steps.
  SweepOptions SmallSweep(const std::string& slo) {
    SweepOptions o;
    o.engines = {engines::FindEngine("redis")};
    o.memtier = {.threads = 1, .clients = 2, .pipeline = 4};
    o.key_maximum = 1000;
    o.step_time = std::chrono::seconds(1);
    o.objectives = {*ParseObjective(slo)};
    o.search.fractions = {0.02, 0.04};
    o.search.confirm = 1;
    o.search.confirm_step_downs = 1;
    o.cooldown = std::chrono::milliseconds(0);
    o.driver = &driver_;
    return o;
  }

  drivers::BuiltinDriver driver_;
};

TEST(StepWarmup, AFifthOfTheStepAtMostASecond) {
  EXPECT_EQ(StepWarmup(std::chrono::seconds(1)), std::chrono::milliseconds(200));
  EXPECT_EQ(StepWarmup(std::chrono::seconds(2)), std::chrono::milliseconds(400));
  EXPECT_EQ(StepWarmup(std::chrono::seconds(10)), std::chrono::seconds(1));
  EXPECT_EQ(StepWarmup(std::chrono::seconds(60)), std::chrono::seconds(1));
}

TEST_F(SweepFlowTest, SweepRecordsEveryStepAndReturnsTheSetupToReady) {
  ASSERT_TRUE(
      CreateSetup({.id = "sw", .engines = {engines::FindEngine("redis")}, .pin_cpus = false}));
  auto code = SweepOnSetup("sw", SmallSweep("p99<=10s"), OutputFormat::kJson);
  ASSERT_TRUE(code) << code.error().message;
  EXPECT_EQ(*code, 0);

  auto s = state::Load("sw");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, state::SetupStatus::kReady);
  ASSERT_EQ(s->benchmarks.size(), 1u);
  EXPECT_EQ(s->benchmarks[0].kind, "sweep");
  EXPECT_EQ(s->benchmarks[0].status, results::RunStatus::kCompleted);
  const fs::path dir = state::SetupDir("sw") / "sweeps" / s->benchmarks[0].run_id;
  EXPECT_TRUE(fs::exists(dir / "config.json"));
  EXPECT_TRUE(fs::exists(dir / "results.csv"));

  const auto j = ReadJson(dir / "results.json");
  results::SweepResults r;
  std::string error;
  ASSERT_TRUE(results::FromJson(j, &r, &error)) << error;
  EXPECT_EQ(j["scenario"], "sweep");
  EXPECT_EQ(r.status, results::RunStatus::kCompleted);
  ASSERT_EQ(r.objectives.size(), 1u);
  EXPECT_EQ(r.objectives[0].text, "p99<=10s");
  EXPECT_EQ(r.settings.step_time_sec, 1);
  EXPECT_EQ(r.settings.warmup_sec, 0.2);  // a fifth of the step
  ASSERT_EQ(r.engines.size(), 1u);
  const auto& e = r.engines[0];
  EXPECT_EQ(e.error, "");
  // The closed-loop capacity first, then open-loop steps at fractions of it.
  ASSERT_GE(e.steps.size(), 3u);
  EXPECT_EQ(e.steps[0].phase, results::StepPhase::kCapacity);
  EXPECT_EQ(e.steps[0].target_rate, 0);
  EXPECT_EQ(e.capacity, e.steps[0].measured.achieved_rate);
  EXPECT_GT(e.capacity, 0);
  EXPECT_EQ(e.steps[1].phase, results::StepPhase::kLadder);
  EXPECT_EQ(e.steps[1].target_rate, std::max(1.0, std::round(e.capacity * 0.02)));
  for (size_t i = 0; i < e.steps.size(); ++i) {
    const auto& step = e.steps[i];
    EXPECT_EQ(step.index, static_cast<int>(i) + 1);
    EXPECT_TRUE(fs::exists(dir / step.measured.raw_file)) << step.measured.raw_file;
    for (double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
      EXPECT_TRUE(step.measured.LatencyAt(p)) << "step " << step.index << " p" << p;
    }
    // The generator reported its own CPU use (how much is a timing, not asserted).
    const auto raw = ReadJson(dir / step.measured.raw_file);
    EXPECT_GE(raw["dfbench"]["client_cpu"]["usable_cpus"].get<int>(), 1) << step.index;
    EXPECT_GE(step.measured.client_cpu, 0) << "step " << step.index;
    if (i == 0) continue;
    // The rule: a pass is within 1 % of its target with every objective kept.
    EXPECT_EQ(step.verdict.passed, step.verdict.reason.empty()) << step.verdict.reason;
    if (step.verdict.passed) {
      EXPECT_LE(std::abs(step.measured.achieved_rate - step.target_rate), 0.01 * step.target_rate);
      EXPECT_LE(*step.measured.LatencyAt(99), 10000);
    }
  }
  // One confirmation round after the search; the found rate is one a round sustained.
  EXPECT_EQ(e.confirmation.round_rates.size(), e.found_rate ? 2u : 0u);
  if (e.found_rate) {
    EXPECT_EQ(e.steps.back().phase, results::StepPhase::kConfirm);
    EXPECT_EQ(*e.found_rate, e.confirmation.min_rate);
    EXPECT_LT(*e.found_rate, e.capacity);
  }
}

}  // namespace
}  // namespace dfbench::scenarios
