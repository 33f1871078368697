// The results of a run as plain data, and the writers that turn it into memtier-compatible
// JSON and the memtier-style summary table. Pure functions of their inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/hdr_histogram.h"
#include "loadgen/config.h"

namespace dfbench::loadgen {

class LatencyHistogram;

// Latency figures in milliseconds. `percentiles_ms` is parallel to Config::percentiles.
struct LatencySummary {
  uint64_t count = 0;
  double avg_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  std::vector<double> percentiles_ms;
};

// Summarises a histogram; `sum_ns` (the exact sum of the recorded values) gives the average.
LatencySummary Summarize(const LatencyHistogram& histogram, double sum_ns,
                         const std::vector<double>& percentiles);

// One second of the measured window ("Time-Serie" entry).
struct SeriesPoint {
  uint64_t bytes_rx = 0;
  uint64_t bytes_tx = 0;
  LatencySummary latency;  // count = successful replies that arrived in this second
  uint32_t clients = 0;    // Totals, client staircase only: the clients of all threads taking part
};

// A section's figures per second of its run (KB: 1024 bytes).
struct SectionRates {
  double ops = 0;
  double hits = 0;
  double misses = 0;
  double moved = 0;
  double ask = 0;
  double kb_rx = 0;
  double kb_tx = 0;
  double connection_errors = 0;  // Totals only: the run's, which no command owns
};

// A per-command section ("Sets", "Gets", "Lpushs") or "Totals".
struct SectionStats {
  std::string section;  // "Sets"
  std::string type;     // "SET"
  bool has_hits = false;
  uint64_t count = 0;  // operations (Config::error_replies_are_ops: error replies among them)
  uint64_t errors = 0;
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t bytes_rx = 0;
  uint64_t bytes_tx = 0;
  uint64_t moved = 0;  // cluster: MOVED / ASK redirections (each request was then resent)
  uint64_t ask = 0;
  LatencySummary latency;      // from the due time in open loop, from the send time otherwise
  LatencySummary uncorrected;  // open loop only: from the send time
  std::vector<SeriesPoint> series;
  // The latency histogram itself (ns), when the report was made from one: written as memtier's
  // "Compressed Histogram" and into the HdrHistogram files.
  std::optional<core::HdrHistogram> histogram;
  // Set in an average of runs: the runs' mean rates, which no single duration gives.
  std::optional<SectionRates> mean_rates;
};

// The generator's own CPU use over the run (warm-up included), to tell when it was the limit.
struct ClientCpu {
  double cpu_sec = 0;  // user + system
  double wall_sec = 0;
  int usable_cpus = 1;       // min(threads, CPUs of its affinity)
  double run_delay_sec = 0;  // its threads' time runnable but waiting for a CPU, summed
  // cpu_sec / (wall_sec × usable_cpus): 1 means every usable CPU was busy.
  double Utilization() const;
  // (cpu_sec + run_delay_sec) / (wall_sec × usable_cpus): how much CPU it wanted. At 1 or more
  // it was the limit, whether it got the CPUs (Utilization) or waited for them (starved by
  // other processes, or more threads than CPUs).
  double Demand() const;
};

// A --client-stats file: where it goes and what it holds.
struct ClientStatsFile {
  std::string path;
  std::string text;
};

struct Report {
  int64_t start_epoch_ms = 0;
  int64_t finish_epoch_ms = 0;
  int64_t start_epoch_us = 0;  // the same start, finer: several generators' starts compare
  double duration_ms = 0;      // exact measured duration
  bool interrupted = false;
  std::string aborted_reason;  // non-empty when every connection was lost for good
  // Why the measured window ended before the load asked was done (a connection lost, the server
  // silent), "" when it did not; and when, in seconds into the window. Its requests after that
  // are missing, so the run's figures are not the server's.
  std::string ended_early;
  double ended_at_sec = 0;

  std::vector<SectionStats> sections;
  SectionStats totals;

  // The "dfbench" block.
  bool open_loop = false;
  double target_rate = 0;
  double achieved_rate = 0;
  uint64_t errors = 0;  // failed requests: error replies and lost requests
  std::vector<std::string> error_samples;
  uint64_t connection_errors = 0;
  uint64_t reconnects = 0;
  uint64_t tls_handshakes = 0;
  uint64_t pushes = 0;
  uint64_t unanswered = 0;
  uint64_t lost_requests = 0;  // sent, never answered: lost with a connection or at the end
  uint64_t warmup_count = 0;
  double warmup_duration_ms = 0;
  ClientCpu client_cpu;
  LatencySummary send_lag;  // open loop only: send time - due time of the measured requests
  std::vector<std::string> cluster_nodes;     // cluster mode: the primaries at the start, host:port
  std::vector<ClientStatsFile> client_stats;  // --client-stats: one per client, for the caller

  double seconds() const { return duration_ms / 1000.0; }
};

// The section's rates in `report`: its mean_rates, or its figures over the report's duration.
// `totals`: the section is the report's Totals (the only one with connection errors).
SectionRates RatesOf(const SectionStats& section, const Report& report, bool totals);

// memtier's JSON layout ("configuration", "run information", then the results sections of
// RunSections: "ALL STATS" for one run) plus "dfbench", which describes the last section: the
// run, or the average of the runs (memtier's --run-count). `runs`: each run's report, in order.
std::string ReportJson(std::span<const Report> runs, const Config& config);
inline std::string ReportJson(const Report& run, const Config& config) {
  return ReportJson(std::span(&run, 1), config);
}

// The memtier-style summary printed on stdout, its sections as the JSON's.
std::string ReportTable(std::span<const Report> runs, const Config& config);
inline std::string ReportTable(const Report& run, const Config& config) {
  return ReportTable(std::span(&run, 1), config);
}

// The HdrHistogram files of memtier's --hdr-file-prefix for the run numbered `run` (from 1):
// for the totals and for each section, the percentile table (.txt, in ms) and the histogram log
// (.hgrm, values in ns), named <prefix>_FULL_RUN_<run>.* and <prefix>_<TYPE>_command_run_<run>.*.
std::vector<core::HdrFile> HdrFiles(const Report& report, const std::string& prefix, int run);

// "p50.00", "p99.90", "p99.99", "p100.0" (memtier's key spelling).
std::string PercentileKey(double percentile);
// The same key in a Time-Serie second, where memtier writes two decimals ("p0.00", "p99.90").
std::string SeriesPercentileKey(double percentile);

}  // namespace dfbench::loadgen
