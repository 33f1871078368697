// The search of `dfbench sweep`: latency objectives, the pass/fail rule of one open-loop step,
// and the walk from a closed-loop capacity to the highest rate that keeps every objective (a
// ladder of fractions of the capacity, bisection of the first failing rung, confirmation
// rounds). Pure: a step is a function the caller supplies, so the walk is tested on scripted
// outcomes and driven by a real load generator in the scenario.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "results/sweep_schema.h"

namespace dfbench::scenarios {

// "p99<=1ms", "p99.9<=500us", "p50<=2.5ms" (the units of core::ParseDuration; a bare number is
// seconds). kUsage with one line naming the text for anything else.
core::Result<results::Objective> ParseObjective(std::string_view text);

// A generator busier than this share of its CPUs is taken as the limit of a step it failed.
inline constexpr double kClientSaturated = 0.9;

// The pass/fail rule of an open-loop step at `target_rate`: passed when no more than
// `max_error_pct` percent of its requests failed (0: none; results::TrialFailure's rule), the
// achieved rate is within `rate_tolerance` (a fraction) of the target and every objective
// holds. The reason names the first rule broken, and the load generator when it fell short of
// the target with its CPUs saturated: such a step says nothing about the engine. A step is
// client-late (passed or failed) when the generator's send lag at an objective's percentile
// exceeds results::kClientLateShare of its limit; a failed one's reason then says so.
results::StepVerdict JudgeStep(double target_rate, const results::StepMeasurement& m,
                               const std::vector<results::Objective>& objectives,
                               double rate_tolerance, double max_error_pct);

struct SearchSettings {
  // Rungs as fractions of the closed-loop capacity, climbed until the first failure.
  std::vector<double> fractions = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25};
  double bracket = 0.02;         // bisect until (fail - pass) <= bracket × pass
  double rate_tolerance = 0.01;  // achieved within this fraction of the target
  int confirm = 2;               // confirmation rounds at the found rate
  int confirm_step_downs = 5;    // a failing round retries this many times, `bracket` lower each
  // A failing ladder or bisection step is run again at the same rate this many times and fails
  // only when every run does: one stall of the machine (tens of ms are enough to break a p99
  // over a 10 s step) would otherwise end the ladder at a fraction of the engine's knee. The
  // confirmation rounds re-run the found rate, so a lucky rerun cannot raise it unchecked.
  int recheck = 1;
  double max_error_pct = 0;  // a step with a larger share of failed requests fails (JudgeStep)
};

struct SearchResult {
  std::vector<results::SweepStep> steps;  // the open-loop steps, in order
  std::optional<double> found_rate;  // the lowest rate a round sustained; none when nothing passed
  std::optional<double> first_failing_rate;  // the bracket's upper end, when one failed
  results::Confirmation confirmation;
  bool stopped = false;  // the step function gave up (interrupt, engine lost)
};

// Runs one open-loop step at a target rate; nullopt stops the search (what stopped it is the
// caller's to record).
using StepFunction =
    std::function<std::optional<results::StepMeasurement>(results::StepPhase, double target_rate)>;
// Called after every step, e.g. to save the results so far.
using StepObserver = std::function<void(const results::SweepStep&)>;

// The walk from `capacity` (closed-loop ops/s). Ladder rungs at fractions of it until one fails
// (rechecked: see `recheck`); then bisection between the last passing and the first failing rate
// until the bracket is within `bracket` of the passing rate; then `confirm` rounds, each re-running
// the found rate and stepping down by `bracket` while it fails. With no failing rung the highest
// rung is the found rate (confirmed the same way); with no passing rung there is none.
SearchResult SearchMaxRate(double capacity, const std::vector<results::Objective>& objectives,
                           const SearchSettings& settings, const StepFunction& step,
                           const StepObserver& observe = {});

}  // namespace dfbench::scenarios
