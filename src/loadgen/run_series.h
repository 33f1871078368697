// memtier's --run-count results (memtier_benchmark.cpp main, run_stats::aggregate_average): the
// runs' sections, and the best, the worst and the average of several runs.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "loadgen/config.h"
#include "loadgen/report.h"

namespace dfbench::loadgen {

// A results section: its title ("ALL STATS", "RUN #2 RESULTS", "BEST RUN RESULTS") and report.
struct TitledReport {
  std::string title;
  Report report;
};

// The runs with the highest and the lowest Totals ops/sec, the first of equals. memtier means
// the same, but 2.3.0 compares rates it has not computed yet and so names run #1 for both.
size_t BestRun(std::span<const Report> runs);
size_t WorstRun(std::span<const Report> runs);

// memtier's average of runs: counts summed, rates and average latencies the runs' means, the
// latency histograms merged (percentiles, min and max of all the runs), no time series. What
// memtier leaves out: the window from the first run's start to the last one's finish, its
// duration the runs' summed; errors, reconnects, warm-ups and CPU summed; the open loop's
// uncorrected and send-lag percentiles the highest of the runs' (their histograms are not
// kept); the interrupt and an early end the last run's, which ends the series.
Report AverageRuns(std::span<const Report> runs, const Config& config);

// The sections memtier reports: "ALL STATS" for one run; for more, with `config.print_all_runs`
// "RUN #k RESULTS" for each, then "BEST RUN RESULTS", "WORST RUN RESULTS" and
// "AGGREGATED AVERAGE RESULTS (N runs)".
std::vector<TitledReport> RunSections(std::span<const Report> runs, const Config& config);

}  // namespace dfbench::loadgen
