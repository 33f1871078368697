// Diffing two result files of the same shape, metric by metric: pure functions over parsed
// documents, and the table and JSON renderings of `dfbench compare`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "report/result_document.h"

namespace dfbench::report {

enum class Direction { kHigherIsBetter, kLowerIsBetter };

// A metric's central value (a median) and the spread behind it: the trials' min..max for run
// and per-command files, the series' min..max for replication files.
struct Measurement {
  double value = 0;
  double min = 0;
  double max = 0;
  bool present = false;  // false: the file has no value (no trials, no samples, never synced)
};

// From a Stats: absent when all of it is zero (no trials, or the reference's empty "{}").
Measurement FromStats(const results::Stats& s);
// A single value without spread; absent when zero.
Measurement FromValue(double v);

// Whether overlapping spreads cancel a regression beyond the threshold.
enum class Significance {
  kThresholdOnly,  // any change beyond the threshold counts (the reference's behaviour)
  kOutsideNoise,   // only a change whose spreads do not overlap counts
};

struct CompareOptions {
  double regression_pct = 5.0;
  Significance significance = Significance::kThresholdOnly;
};

enum class Verdict {
  kOk,             // changed by no more than the threshold
  kImproved,       // better by more than the threshold, spreads apart
  kRegression,     // worse by more than the threshold (spreads may overlap: see spreads_overlap)
  kWithinNoise,    // beyond the threshold but the spreads overlap, and that cancels it
  kMissing,        // in the baseline, absent from the candidate: a regression
  kNotComparable,  // absent from the baseline (or from both)
};

struct MetricDelta {
  std::string metric;  // "throughput", "p50", "p99", "p999", "avg_latency", "median_rps", ...
  Direction direction = Direction::kHigherIsBetter;
  Measurement baseline;
  Measurement candidate;
  std::optional<double> delta_pct;  // (candidate - baseline) / baseline × 100; none when absent
  bool spreads_overlap = false;     // [min..max] of both sides intersect
  Verdict verdict = Verdict::kOk;
  bool regressed = false;  // counts toward exit code 1
};

// One metric compared. A change of exactly the threshold is within tolerance. Better beyond the
// threshold with overlapping spreads is kWithinNoise; worse beyond it with overlapping spreads is
// kRegression (regressed) under kThresholdOnly and kWithinNoise (not regressed) under
// kOutsideNoise. Both values zero compare as kOk.
MetricDelta CompareMetric(std::string metric, Direction direction, const Measurement& baseline,
                          const Measurement& candidate, const CompareOptions& options);

// One engine (run), one (command, engine) pair (commands) or one case (replication).
struct GroupComparison {
  std::string command;                              // kCommands
  std::string engine;                               // kRun, kCommands
  std::string run_name;                             // kReplication
  std::string baseline_version, candidate_version;  // engine versions (kRun, kCommands)
  std::vector<MetricDelta> metrics;
  std::vector<std::string> regressions;  // names of the regressed metrics, in metric order

  // "redis", "SET redis", "qps=100000".
  std::string Label() const;
};

struct Comparison {
  Shape shape = Shape::kRun;
  CompareOptions options;
  std::string baseline_source, candidate_source;
  std::string baseline_run_id, candidate_run_id;
  std::vector<GroupComparison> groups;  // baseline order
  // Engines ("valkey"), commands ("GET"), engines of a command ("SET/valkey") or cases present
  // in one file only.
  std::vector<std::string> only_in_baseline;
  std::vector<std::string> only_in_candidate;
  // Differences in what was run (load settings, engine versions, flags), for the reader.
  std::vector<std::string> notes;

  bool Regressed() const;
  // "redis throughput -10.0%", one per regressed metric.
  std::vector<std::string> RegressionList() const;
};

// Compares two documents. kUsage when their shapes differ or when no engine, command or case
// is in both.
core::Result<Comparison> Compare(const ResultDocument& baseline, const ResultDocument& candidate,
                                 const CompareOptions& options);

// Sweeps: "max_rate_in_slo" (the found rate, spread over the confirmation rounds; higher is
// better) and, per objective, "p99@50000": the percentile's latency at a rate where the
// baseline kept every objective (a passing ladder rung), the candidate's read off its curve
// (lower is better; absent when the candidate did not run on both sides of that rate).
inline constexpr const char* kMaxRateInSlo = "max_rate_in_slo";
GroupComparison CompareSweepEngines(const results::SweepEngine& baseline,
                                    const results::SweepEngine& candidate,
                                    const std::vector<results::Objective>& objectives,
                                    const CompareOptions& options);
// The latency at `percentile` on an engine's open-loop curve at `rate`: linear between the two
// steps around it; nullopt outside the rates it ran.
std::optional<double> LatencyAtRate(const results::SweepEngine& e, double percentile, double rate);
// "p99@50000", "p99.9@12500".
std::string LatencyAtRateMetric(double percentile, double rate);

// "ok", "improved", "regression", "within_noise", "missing", "not_comparable".
const char* VerdictName(Verdict v);
// For people: "ok", "improved", "REGRESSION", "REGRESSION (within noise)", "within noise", ...
std::string VerdictLabel(const MetricDelta& d);
// "throughput (ops/s)", "p99.9 (ms)", "median_rps", ...
std::string MetricLabel(const std::string& metric);
// A metric's value as the table shows it: "2,646,502", "4.600".
std::string FormatMetricValue(const std::string& metric, double v);
// "+2.3%", "-10.0%", "n/a".
std::string FormatDelta(const MetricDelta& d);

// The human table (what `dfbench compare` prints), ending with the verdict line.
std::string RenderComparisonTable(const Comparison& c);
// One JSON payload: shape, regression_pct, rows[], engines[] / commands[] / cases[] (each with
// its own regressions[]), regressions[], only_in_baseline[], only_in_candidate[], notes[].
std::string RenderComparisonJson(const Comparison& c);

}  // namespace dfbench::report
