#include "loadgen/run_series.h"

#include <algorithm>

namespace dfbench::loadgen {
namespace {

double TotalOpsPerSec(const Report& r) {
  return RatesOf(r.totals, r, true).ops;
}

// Each run's figure for one section (by index; -1: the Totals).
const SectionStats& SectionOf(const Report& r, int index) {
  return index < 0 ? r.totals : r.sections[static_cast<size_t>(index)];
}

// The runs' latencies as one: the mean of their averages (memtier's), the extremes of the runs
// that had replies, percentiles from `merged` when it holds every run's values, otherwise the
// highest of the runs'.
LatencySummary CombineLatency(const std::vector<const LatencySummary*>& runs,
                              const std::optional<core::HdrHistogram>& merged,
                              const std::vector<double>& percentiles) {
  LatencySummary out;
  out.percentiles_ms.assign(percentiles.size(), 0.0);
  bool any = false;
  for (const LatencySummary* l : runs) {
    out.count += l->count;
    out.avg_ms += l->avg_ms / static_cast<double>(runs.size());
    if (l->count == 0) continue;
    out.min_ms = any ? std::min(out.min_ms, l->min_ms) : l->min_ms;
    out.max_ms = std::max(out.max_ms, l->max_ms);
    any = true;
    for (size_t i = 0; i < out.percentiles_ms.size() && i < l->percentiles_ms.size(); ++i) {
      out.percentiles_ms[i] = std::max(out.percentiles_ms[i], l->percentiles_ms[i]);
    }
  }
  if (merged && merged->total_count() > 0) {
    for (size_t i = 0; i < percentiles.size(); ++i) {
      out.percentiles_ms[i] = static_cast<double>(merged->ValueAtPercentile(percentiles[i])) / 1e6;
    }
  }
  return out;
}

// The runs' histograms merged; none when a run has none.
std::optional<core::HdrHistogram> MergeHistograms(std::span<const Report> runs, int index) {
  std::optional<core::HdrHistogram> merged;
  for (const Report& r : runs) {
    const auto& h = SectionOf(r, index).histogram;
    if (!h) return std::nullopt;
    if (!merged) {
      merged = *h;
    } else if (!merged->Merge(*h)) {
      return std::nullopt;
    }
  }
  return merged;
}

SectionStats AverageSection(std::span<const Report> runs, int index,
                            const std::vector<double>& percentiles) {
  const Report& first = runs.front();
  SectionStats out = SectionOf(first, index);
  const auto n = static_cast<double>(runs.size());
  out.count = out.errors = out.hits = out.misses = 0;
  out.bytes_rx = out.bytes_tx = out.moved = out.ask = 0;
  out.series.clear();  // memtier's average has no "Time-Serie"
  SectionRates mean;
  std::vector<const LatencySummary*> latencies, uncorrected;
  for (const Report& r : runs) {
    const SectionStats& s = SectionOf(r, index);
    out.count += s.count;
    out.errors += s.errors;
    out.hits += s.hits;
    out.misses += s.misses;
    out.bytes_rx += s.bytes_rx;
    out.bytes_tx += s.bytes_tx;
    out.moved += s.moved;
    out.ask += s.ask;
    const SectionRates rates = RatesOf(s, r, index < 0);
    mean.ops += rates.ops / n;
    mean.hits += rates.hits / n;
    mean.misses += rates.misses / n;
    mean.moved += rates.moved / n;
    mean.ask += rates.ask / n;
    mean.kb_rx += rates.kb_rx / n;
    mean.kb_tx += rates.kb_tx / n;
    mean.connection_errors += rates.connection_errors / n;
    latencies.push_back(&s.latency);
    uncorrected.push_back(&s.uncorrected);
  }
  out.mean_rates = mean;
  out.histogram = MergeHistograms(runs, index);
  out.latency = CombineLatency(latencies, out.histogram, percentiles);
  out.uncorrected = CombineLatency(uncorrected, std::nullopt, percentiles);
  return out;
}

}  // namespace

// The first of equals wins, as max_element and min_element pick it.
size_t BestRun(std::span<const Report> runs) {
  return static_cast<size_t>(std::ranges::max_element(runs, {}, TotalOpsPerSec) - runs.begin());
}

size_t WorstRun(std::span<const Report> runs) {
  return static_cast<size_t>(std::ranges::min_element(runs, {}, TotalOpsPerSec) - runs.begin());
}

Report AverageRuns(std::span<const Report> runs, const Config& config) {
  const std::vector<double>& percentiles = config.load.percentiles;
  const Report& last = runs.back();
  Report out;
  out.start_epoch_ms = runs.front().start_epoch_ms;
  out.start_epoch_us = runs.front().start_epoch_us;
  out.finish_epoch_ms = last.finish_epoch_ms;
  out.interrupted = last.interrupted;
  out.aborted_reason = last.aborted_reason;
  out.ended_early = last.ended_early;
  out.ended_at_sec = last.ended_at_sec;
  out.open_loop = last.open_loop;
  out.target_rate = last.target_rate;
  out.cluster_nodes = last.cluster_nodes;
  out.client_cpu.usable_cpus = last.client_cpu.usable_cpus;
  std::vector<const LatencySummary*> send_lags;
  for (const Report& r : runs) {
    out.duration_ms += r.duration_ms;
    out.achieved_rate += r.achieved_rate / static_cast<double>(runs.size());
    out.errors += r.errors;
    out.error_samples.insert(out.error_samples.end(), r.error_samples.begin(),
                             r.error_samples.end());
    out.connection_errors += r.connection_errors;
    out.reconnects += r.reconnects;
    out.tls_handshakes += r.tls_handshakes;
    out.pushes += r.pushes;
    out.unanswered += r.unanswered;
    out.lost_requests += r.lost_requests;
    out.warmup_count += r.warmup_count;
    out.warmup_duration_ms += r.warmup_duration_ms;
    out.client_cpu.cpu_sec += r.client_cpu.cpu_sec;
    out.client_cpu.wall_sec += r.client_cpu.wall_sec;
    out.client_cpu.run_delay_sec += r.client_cpu.run_delay_sec;
    send_lags.push_back(&r.send_lag);
  }
  out.send_lag = CombineLatency(send_lags, std::nullopt, percentiles);
  for (size_t i = 0; i < last.sections.size(); ++i) {
    out.sections.push_back(AverageSection(runs, static_cast<int>(i), percentiles));
  }
  out.totals = AverageSection(runs, -1, percentiles);
  return out;
}

std::vector<TitledReport> RunSections(std::span<const Report> runs, const Config& config) {
  if (config.run_count <= 1) return {{"ALL STATS", runs.front()}};
  std::vector<TitledReport> out;
  if (config.print_all_runs) {
    for (size_t i = 0; i < runs.size(); ++i) {
      out.push_back({"RUN #" + std::to_string(i + 1) + " RESULTS", runs[i]});
    }
  }
  out.push_back({"BEST RUN RESULTS", runs[BestRun(runs)]});
  out.push_back({"WORST RUN RESULTS", runs[WorstRun(runs)]});
  out.push_back({"AGGREGATED AVERAGE RESULTS (" + std::to_string(runs.size()) + " runs)",
                 AverageRuns(runs, config)});
  return out;
}

}  // namespace dfbench::loadgen
