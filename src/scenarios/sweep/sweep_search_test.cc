#include "scenarios/sweep/sweep_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace dfbench::scenarios {
namespace {

using results::Objective;
using results::StepMeasurement;
using results::StepPhase;

std::vector<Objective> P99Within(double ms) {
  return {Objective{.percentile = 99, .limit_ms = ms, .text = "p99<=" + std::to_string(ms)}};
}

StepMeasurement Measured(double achieved, double p99_ms, double cpu = 0.3) {
  return {.achieved_rate = achieved,
          .latency = {{50, p99_ms / 4}, {99, p99_ms}, {100, p99_ms * 2}},
          .client_cpu = cpu};
}

// An engine whose p99 stays at 0.5 ms up to `knee` ops/s and is 10 ms beyond: every target is
// achieved exactly.
StepFunction KneeAt(double knee, std::vector<std::pair<StepPhase, double>>* asked) {
  return [knee, asked](StepPhase phase, double target) -> std::optional<StepMeasurement> {
    asked->emplace_back(phase, target);
    return Measured(target, target <= knee ? 0.5 : 10);
  };
}

TEST(ParseObjective, ReadsPercentileAndLimit) {
  auto o = ParseObjective("p99<=1ms");
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->percentile, 99);
  EXPECT_EQ(o->limit_ms, 1);
  EXPECT_EQ(o->text, "p99<=1ms");
  o = ParseObjective("p99.9<=500us");
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->percentile, 99.9);
  EXPECT_EQ(o->limit_ms, 0.5);
  o = ParseObjective("p100<=2s");
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->limit_ms, 2000);
}

TEST(ParseObjective, RefusesMalformedText) {
  for (const char* bad : {"", "p99", "99<=1ms", "p<=1ms", "p0<=1ms", "p101<=1ms", "p99<1ms",
                          "p99<=", "p99<=fast", "p99<=0ms", "px<=1ms", "p99 <=1ms"}) {
    auto o = ParseObjective(bad);
    ASSERT_FALSE(o) << bad;
    EXPECT_EQ(o.error().kind, core::ErrorKind::kUsage);
    // The text, quoted; the command line says which flag it came from.
    EXPECT_EQ(o.error().message.rfind("\"" + std::string(bad) + "\": expected", 0), 0u)
        << o.error().message;
  }
}

TEST(JudgeStep, PassesWhenEveryObjectiveHoldsAndTheRateIsMet) {
  const auto objectives = std::vector<Objective>{{99, 1, "p99<=1ms"}, {100, 5, "p100<=5ms"}};
  auto v = JudgeStep(1000, Measured(995, 0.9), objectives, 0.01, 0);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.reason, "");
  // 0.9 ms p99 passes, but the maximum (1.8 ms) is within 5 ms too; a 3 ms p99 breaks both and
  // the first objective is named.
  v = JudgeStep(1000, Measured(1000, 3), objectives, 0.01, 0);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.reason, "p99<=1ms: 3.000 ms");
}

TEST(JudgeStep, AShortfallBeyondTheToleranceFails) {
  const auto objectives = P99Within(1);
  auto v = JudgeStep(1000, Measured(980, 0.1), objectives, 0.01, 0);
  EXPECT_FALSE(v.passed);
  EXPECT_FALSE(v.client_limited);
  EXPECT_EQ(v.reason, "achieved 980 ops/s, 2.0% below the target");
  // Exactly 1 % off is within.
  EXPECT_TRUE(JudgeStep(1000, Measured(990, 0.1), objectives, 0.01, 0).passed);
}

TEST(JudgeStep, ASaturatedGeneratorIsNamedAndNeverPasses) {
  auto v = JudgeStep(1000, Measured(700, 0.1, 0.97), P99Within(1), 0.01, 0);
  EXPECT_FALSE(v.passed);
  EXPECT_TRUE(v.client_limited);
  EXPECT_NE(v.reason.find("the load generator could not keep up (client CPU 97%)"),
            std::string::npos)
      << v.reason;
}

// A send lag over a tenth of the limit at an objective's percentile marks the step client-late,
// passed or failed; a failure then says part of it is the client's.
TEST(JudgeStep, AGeneratorThatSentLateIsMarkedClientLate) {
  StepMeasurement m = Measured(1000, 0.9);
  m.send_lag = {{99, 0.05}};
  auto v = JudgeStep(1000, m, P99Within(1), 0.01, 0);
  EXPECT_TRUE(v.passed);
  EXPECT_FALSE(v.client_late);  // 0.05 ms is within a tenth of 1 ms
  m.send_lag = {{99, 0.4}};
  v = JudgeStep(1000, m, P99Within(1), 0.01, 0);
  EXPECT_TRUE(v.passed);  // the latency, lateness included, kept the objective
  EXPECT_TRUE(v.client_late);
  EXPECT_EQ(v.reason, "");
  m = Measured(1000, 3);
  m.send_lag = {{99, 2.5}};
  v = JudgeStep(1000, m, {{99, 1, "p99<=1ms"}}, 0.01, 0);
  EXPECT_FALSE(v.passed);
  EXPECT_TRUE(v.client_late);
  EXPECT_EQ(v.reason,
            "p99<=1ms: 3.000 ms; the load generator sent late, send lag p99 2.500 ms "
            "(p99<=1ms): part of this is the client's");
  // Without a send lag (memtier, the closed loop) nothing is said.
  EXPECT_FALSE(JudgeStep(1000, Measured(1000, 3), P99Within(1), 0.01, 0).client_late);
}

TEST(JudgeStep, ErrorsAndMissingPercentilesFail) {
  StepMeasurement m = Measured(1000, 0.1);
  m.errors = 3;
  EXPECT_EQ(JudgeStep(1000, m, P99Within(1), 0.01, 0).reason, "no request succeeded (3 errors)");
  // By default any error fails a step; --max-error-pct allows a share of them.
  m.ops = 997;
  EXPECT_EQ(JudgeStep(1000, m, P99Within(1), 0.01, 0).reason,
            "0.30 % of requests failed (3 errors), above the 0 % allowed");
  EXPECT_TRUE(JudgeStep(1000, m, P99Within(1), 0.01, 0.5).passed);
  EXPECT_EQ(JudgeStep(1000, m, P99Within(1), 0.01, 0.25).reason,
            "0.30 % of requests failed (3 errors), above the 0.25 % allowed");
  const auto p999 = std::vector<Objective>{{99.9, 1, "p99.9<=1ms"}};
  EXPECT_EQ(JudgeStep(1000, Measured(1000, 0.1), p999, 0.01, 0).reason, "p99.9<=1ms: not measured");
  // A step whose generator lost its server fails for that, however few requests were lost.
  m = Measured(1000, 0.1);
  m.ended_early = "a connection was lost (Connection reset by peer) at 0.50 s of 1.00 s";
  EXPECT_EQ(JudgeStep(1000, m, P99Within(1), 0.01, 100).reason,
            "the measured window ended early: " + m.ended_early);
}

TEST(SearchMaxRate, ClimbsTheLadderThenBisectsToTheBracket) {
  std::vector<std::pair<StepPhase, double>> asked;
  SearchSettings settings{.fractions = {0.25, 0.5, 0.75, 1.0}, .confirm = 0, .recheck = 0};
  const auto result = SearchMaxRate(100000, P99Within(1), settings, KneeAt(61000, &asked));
  // The ladder stops at the first failing rung (75 %); bisection between 50k and 75k.
  ASSERT_GE(asked.size(), 4u);
  EXPECT_EQ(asked[0], std::make_pair(StepPhase::kLadder, 25000.0));
  EXPECT_EQ(asked[2], std::make_pair(StepPhase::kLadder, 75000.0));
  EXPECT_EQ(asked[3], std::make_pair(StepPhase::kBisect, 62500.0));
  for (size_t i = 3; i < asked.size(); ++i) EXPECT_EQ(asked[i].first, StepPhase::kBisect);
  ASSERT_TRUE(result.found_rate);
  ASSERT_TRUE(result.first_failing_rate);
  EXPECT_LE(*result.found_rate, 61000);
  EXPECT_GT(*result.first_failing_rate, 61000);
  EXPECT_LE(*result.first_failing_rate - *result.found_rate, 0.02 * *result.found_rate);
  EXPECT_FALSE(result.stopped);
  // Every step is recorded with its verdict, numbered in order.
  ASSERT_EQ(result.steps.size(), asked.size());
  for (size_t i = 0; i < result.steps.size(); ++i) {
    EXPECT_EQ(result.steps[i].index, static_cast<int>(i) + 1);
    EXPECT_EQ(result.steps[i].verdict.passed, result.steps[i].target_rate <= 61000);
  }
}

TEST(SearchMaxRate, ConfirmationRoundsRerunTheFoundRateAndReportTheSpread) {
  // The knee moves down on the second confirmation round: that round steps down until a rate
  // passes, and the found rate is the lowest a round sustained.
  int confirm_steps = 0;
  auto step = [&](StepPhase phase, double target) -> std::optional<StepMeasurement> {
    double knee = 61000;
    if (phase == StepPhase::kConfirm && ++confirm_steps >= 2) knee = 59000;
    return Measured(target, target <= knee ? 0.5 : 10);
  };
  SearchSettings settings{.fractions = {0.25, 0.5, 0.75}, .confirm = 2};
  const auto result = SearchMaxRate(100000, P99Within(1), settings, step);
  const auto& c = result.confirmation;
  ASSERT_EQ(c.round_rates.size(), 3u);
  ASSERT_TRUE(c.round_rates[0] && c.round_rates[1] && c.round_rates[2]);
  EXPECT_EQ(*c.round_rates[1], *c.round_rates[0]);
  EXPECT_LT(*c.round_rates[2], *c.round_rates[0]);
  EXPECT_LE(*c.round_rates[2], 59000);
  EXPECT_EQ(*result.found_rate, c.min_rate);
  EXPECT_EQ(c.min_rate, *c.round_rates[2]);
  EXPECT_EQ(c.max_rate, *c.round_rates[0]);
  EXPECT_NEAR(c.SpreadPct(), (c.max_rate - c.min_rate) / c.max_rate * 100, 1e-9);
  EXPECT_EQ(result.steps.back().phase, StepPhase::kConfirm);
}

TEST(SearchMaxRate, ARoundThatNeverPassesSustainsNothing) {
  int confirm_steps = 0;
  auto step = [&](StepPhase phase, double target) -> std::optional<StepMeasurement> {
    if (phase == StepPhase::kConfirm) {
      ++confirm_steps;
      return Measured(target, 10);
    }
    return Measured(target, target <= 50000 ? 0.5 : 10);
  };
  SearchSettings settings{.fractions = {0.5, 0.6}, .confirm = 1, .confirm_step_downs = 2};
  const auto result = SearchMaxRate(100000, P99Within(1), settings, step);
  EXPECT_EQ(confirm_steps, 3);
  ASSERT_EQ(result.confirmation.round_rates.size(), 2u);
  EXPECT_FALSE(result.confirmation.round_rates[1]);
  EXPECT_EQ(result.confirmation.SpreadPct(), 0);
  EXPECT_EQ(*result.found_rate, 50000);
}

TEST(SearchMaxRate, AFailureThatDoesNotRecurIsRecheckedAndTheLadderGoesOn) {
  // A knee at 61k, and one stall of the machine during the first step at 30k.
  auto stalled_once = [](std::vector<std::pair<StepPhase, double>>* asked) {
    return [asked, stalled = false](StepPhase phase,
                                    double target) mutable -> std::optional<StepMeasurement> {
      asked->emplace_back(phase, target);
      if (target == 30000 && !stalled) {
        stalled = true;
        return Measured(target, 40);
      }
      return Measured(target, target <= 61000 ? 0.5 : 10);
    };
  };
  std::vector<std::pair<StepPhase, double>> asked;
  const SearchSettings settings{.fractions = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}, .confirm = 0};
  auto result = SearchMaxRate(100000, P99Within(1), settings, stalled_once(&asked));
  ASSERT_GE(result.steps.size(), 4u);
  EXPECT_EQ(result.steps[2].target_rate, 30000);
  EXPECT_FALSE(result.steps[2].verdict.passed);
  EXPECT_EQ(result.steps[3].target_rate, 30000);
  EXPECT_TRUE(result.steps[3].verdict.passed);
  ASSERT_TRUE(result.found_rate);
  EXPECT_GT(*result.found_rate, 59000);
  EXPECT_LE(*result.found_rate, 61000);
  // Without the recheck the same stall ends the search at the rung below it.
  asked.clear();
  SearchSettings no_recheck = settings;
  no_recheck.recheck = 0;
  result = SearchMaxRate(100000, P99Within(1), no_recheck, stalled_once(&asked));
  EXPECT_LT(*result.found_rate, 30000);
}

TEST(SearchMaxRate, NoPassingRungMeansNoRate) {
  std::vector<std::pair<StepPhase, double>> asked;
  const auto result =
      SearchMaxRate(100000, P99Within(1), {.fractions = {0.1, 0.2}}, KneeAt(5000, &asked));
  // The first rung fails twice (once rechecked); the ladder ends there.
  EXPECT_EQ(asked, (std::vector<std::pair<StepPhase, double>>{{StepPhase::kLadder, 10000},
                                                              {StepPhase::kLadder, 10000}}));
  EXPECT_FALSE(result.found_rate);
  EXPECT_EQ(*result.first_failing_rate, 10000);
  EXPECT_TRUE(result.confirmation.round_rates.empty());
}

TEST(SearchMaxRate, EveryRungPassingFindsTheTopRung) {
  std::vector<std::pair<StepPhase, double>> asked;
  const auto result = SearchMaxRate(
      1000, P99Within(1), {.fractions = {0.5, 1.0, 1.5}, .confirm = 1}, KneeAt(1e9, &asked));
  EXPECT_EQ(*result.found_rate, 1500);
  EXPECT_FALSE(result.first_failing_rate);
  EXPECT_EQ(asked.back(), std::make_pair(StepPhase::kConfirm, 1500.0));
}

TEST(SearchMaxRate, AGeneratorAtItsLimitFailsTheRung) {
  // Beyond 40k the generator saturates and falls short: never a pass, whatever the latency.
  auto step = [](StepPhase, double target) -> std::optional<StepMeasurement> {
    return target <= 40000 ? Measured(target, 0.2) : Measured(40000, 0.2, 0.99);
  };
  const auto result =
      SearchMaxRate(100000, P99Within(1), {.fractions = {0.4, 0.8}, .confirm = 0}, step);
  EXPECT_LE(*result.found_rate, 40000);
  EXPECT_TRUE(result.steps[1].verdict.client_limited);
}

TEST(SearchMaxRate, StopsWhenTheStepGivesUpAndKeepsWhatRan) {
  int calls = 0;
  auto step = [&](StepPhase, double target) -> std::optional<StepMeasurement> {
    if (++calls == 3) return std::nullopt;
    return Measured(target, 0.2);
  };
  std::vector<int> observed;
  const auto result =
      SearchMaxRate(100000, P99Within(1), {.fractions = {0.1, 0.2, 0.3, 0.4}}, step,
                    [&](const results::SweepStep& s) { observed.push_back(s.index); });
  EXPECT_TRUE(result.stopped);
  EXPECT_EQ(result.steps.size(), 2u);
  EXPECT_EQ(observed, (std::vector<int>{1, 2}));
  EXPECT_FALSE(result.found_rate);
}

}  // namespace
}  // namespace dfbench::scenarios
