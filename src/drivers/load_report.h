// Reads a memtier_benchmark-format JSON report (ours, memtier's, or dfly_bench's) into a
// TrialResult.
#pragma once

#include <optional>
#include <string>

#include "core/error.h"
#include "results/schema.h"
#include "results/sweep_schema.h"

namespace dfbench::drivers {

struct ReportOptions {
  // For time-boxed memtier runs: divide Count by this instead of memtier's "Total duration",
  // which can be off by a second (it averages per-thread durations through a truncation).
  // For an "AGGREGATED AVERAGE RESULTS (N runs)" section, N times this.
  std::optional<double> test_time_sec;
};

// Throughput = Totals.Count / duration; percentiles from Totals (ms); the average is the
// count-weighted mean of the per-command sections' averages. Reads the "ALL STATS"
// section, or "AGGREGATED AVERAGE RESULTS (N runs)" for multi-run memtier files. Percentile
// keys are matched by their numeric value ("p99.90" and "p99.900" are both 99.9), and the
// nested "Histogram log format" object is skipped. kUsage for a malformed or empty report.
core::Result<results::TrialResult> ParseLoadReport(const std::string& json_text,
                                                   const ReportOptions& options = {});

// A report of the built-in generator as a sweep step: the achieved rate (ParseLoadReport's
// throughput), errors, the Totals' latency at each of `percentiles` that the report holds plus
// the maximum (as percentile 100), and the generator's CPU utilization from its "dfbench"
// block (0 when absent). kUsage as ParseLoadReport.
core::Result<results::StepMeasurement> ParseStepMeasurement(const std::string& json_text,
                                                            const std::vector<double>& percentiles);

}  // namespace dfbench::drivers
