// results.json of `dfbench sweep`: per engine, the closed-loop capacity, every open-loop step
// (target, achieved, latency percentiles, client CPU, verdict), the highest rate found within
// the latency objectives and how it held up over the confirmation rounds.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enum_names.h"
#include "results/run_status.h"
#include "results/schema.h"

namespace dfbench::results {

// "p99<=1ms": the `percentile` of latency (from the due time) at most `limit_ms`.
struct Objective {
  double percentile = 99;
  double limit_ms = 1;
  std::string text;  // as written ("p99<=1ms")

  bool operator==(const Objective&) const = default;
};

// A latency percentile of a step, in milliseconds; percentile 100 is the maximum.
struct PercentileMs {
  double percentile = 0;
  double ms = 0;
};

// What one load-generator pass measured.
struct StepMeasurement {
  double achieved_rate = 0;  // answered operations per second in the measured window
  // Operations answered in the measured window: the base of the error share a step is judged
  // by (not written; the step's verdict records the judgement).
  uint64_t ops = 0;
  std::vector<PercentileMs> latency;  // ascending percentiles; 100 = max
  // The built-in generator's own lateness at the same percentiles (its send lag: send time -
  // due time; empty when the report has none). The latency includes it.
  std::vector<PercentileMs> send_lag;
  uint64_t errors = 0;  // error replies and failed requests
  // Why the generator's measured window ended early, "" when it ran whole (not written; the
  // step's verdict gives it as the reason the step failed).
  std::string ended_early;
  // The generator's CPU time over its wall time, per CPU it could use (0..1; 0 = unknown).
  double client_cpu = 0;
  std::string raw_file;  // the generator's report, relative to the results directory

  // The latency at `percentile`; nullopt when it was not measured.
  std::optional<double> LatencyAt(double percentile) const;
  // The send lag at `percentile`; nullopt when it was not measured.
  std::optional<double> SendLagAt(double percentile) const;
};

// A step is client-late when, at an objective's percentile, the generator's send lag exceeds
// this share of the objective's limit: its latency is then partly the client's.
inline constexpr double kClientLateShare = 0.1;

enum class StepPhase { kCapacity, kLadder, kBisect, kConfirm };
inline constexpr core::EnumNames<StepPhase, 4> kStepPhaseNames{
    {{{StepPhase::kCapacity, "capacity"},
      {StepPhase::kLadder, "ladder"},
      {StepPhase::kBisect, "bisect"},
      {StepPhase::kConfirm, "confirm"}}}};

// Whether a step kept the objectives at its target, and if not, why.
struct StepVerdict {
  bool passed = false;
  bool client_limited = false;  // fell short of its target with the generator's CPUs saturated
  bool client_late = false;     // the generator sent late (kClientLateShare), pass or fail
  std::string reason;           // empty when passed
};

struct SweepStep {
  int index = 0;  // 1-based order within the engine
  StepPhase phase = StepPhase::kLadder;
  double target_rate = 0;  // 0 for the closed-loop capacity step
  StepMeasurement measured;
  StepVerdict verdict;
};

// The found rate over the rounds (the search, then each confirmation): the rate each round
// sustained, or nullopt when none of its tries passed.
struct Confirmation {
  std::vector<std::optional<double>> round_rates;
  double min_rate = 0;
  double max_rate = 0;
  // (max - min) / max × 100; 0 with fewer than two sustained rounds.
  double SpreadPct() const;
};

// One engine's sweep.
// NOLINTNEXTLINE(bugprone-exception-escape): see EngineResult (nlohmann::json member).
struct SweepEngine : EngineRecord {  // on error, the steps may be partial
  double capacity = 0;               // closed-loop ops/s
  std::vector<SweepStep> steps;      // the capacity step first, then the open-loop steps
  std::optional<double> found_rate;  // highest rate within the objectives (confirmed)
  std::optional<double> first_failing_rate;
  Confirmation confirmation;
};

// How the sweep was run.
struct SweepSettings {
  RunLoadRecord memtier;     // threads, clients, ratio, data_size, pipeline (requests unused)
  uint64_t key_maximum = 0;  // 0: the generator's default key range
  double step_time_sec = 10;
  double warmup_sec = 1;  // of each step, discarded
  std::vector<double> fractions;
  double bracket = 0.02;
  double rate_tolerance = 0.01;
  int confirm = 2;
  int recheck = 1;           // reruns of a failing ladder or bisection step
  double max_error_pct = 0;  // share of a step's requests that may fail (0: none may)
};

// NOLINTNEXTLINE(bugprone-exception-escape): see SweepEngine.
struct SweepResults : RunFields {
  std::string scenario = "sweep";
  std::string server_instance;
  std::string client_instance;
  SweepSettings settings;
  std::vector<Objective> objectives;
  std::vector<SweepEngine> engines;
  Context context;
};

// A step is no plain field list: its measurement and verdict sit flat beside its own fields, and
// latency_ms is an object keyed by percentile name.
nlohmann::json ToJson(const SweepStep& s);
bool Read(const nlohmann::json& j, const std::string& path, SweepStep* out, std::string* error);

// The field lists of the others (json_fields.h).
void Fields(auto& v, FieldsOf<Confirmation> auto& x) {
  DFBENCH_FIELDS(round_rates, min_rate, max_rate)
  v.Derived("spread_pct", x.SpreadPct());
}

void Fields(auto& v, FieldsOf<SweepEngine> auto& x) {
  DFBENCH_FIELDS(engine, version)
  DFBENCH_OPTIONAL_FIELDS(origin, sha256)
  DFBENCH_FIELDS(capacity, found_rate, first_failing_rate, confirmation, error, tuning, steps)
}

void Fields(auto& v, FieldsOf<Objective> auto& x) {
  DFBENCH_FIELDS(text, percentile, limit_ms)
}

void Fields(auto& v, FieldsOf<SweepSettings> auto& x) {
  v.Field("memtier", &x.memtier);  // written without `requests`: a step's time bounds it
  DFBENCH_FIELDS(key_maximum, step_time_sec, warmup_sec, fractions, bracket, rate_tolerance,
                 confirm, recheck)
  DFBENCH_OPTIONAL_FIELDS(max_error_pct)
}

void Fields(auto& v, FieldsOf<SweepResults> auto& x) {
  DFBENCH_FIELDS(scenario)
  VisitRunFields(v, x);
  DFBENCH_FIELDS(server_instance, client_instance, settings, objectives, engines, context)
}

// Written by its field list without settings.memtier.requests, read by it like the other
// documents; a `scenario` other than "sweep" is an error, and a file without settings.recheck
// predates reruns of failing steps (0).
nlohmann::json ToJson(const SweepResults& r);
bool FromJson(const nlohmann::json& j, SweepResults* out, std::string* error);

// results.json, two-space indented with a trailing newline.
std::string RenderSweepJson(const SweepResults& r);
// results.csv: one row per step. Columns: engine,version,step,phase,target_rate,achieved_rate,
// p50,p90,p99,p999,max,errors,client_cpu,passed,client_limited,reason,raw_file
std::string RenderSweepCsv(const SweepResults& r);
// The table on stdout: per engine its capacity, found rate with the rounds' spread and the
// step curve.
std::string RenderSweepTable(const SweepResults& r);

}  // namespace dfbench::results
