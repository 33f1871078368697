#include "loadgen/statsd_emitter.h"

#include <algorithm>

namespace dfbench::loadgen {

void StatsdEmitter::Started(int threads, int clients) {
  if (!events_) return;
  events_->Post(
      "Benchmark Started",
      "threads=" + std::to_string(threads) + " connections=" + std::to_string(clients) + " run=1",
      "memtier,start");
}

double StatsdEmitter::ProgressPct(uint64_t ops, double elapsed_s) const {
  if (plan_.requests > 0) return 100.0 * static_cast<double>(ops) / plan_.requests;
  return plan_.test_time_s > 0 ? 100.0 * elapsed_s / plan_.test_time_s : 0;
}

void StatsdEmitter::Second(const SeriesPoint& point, double elapsed_s, long connections) {
  const uint64_t ops = point.latency.count;
  const uint64_t bytes = point.bytes_rx + point.bytes_tx;  // memtier's bytes: both ways
  ops_ += ops;
  bytes_ += bytes;
  latency_sum_ms_ += point.latency.avg_ms * static_cast<double>(ops);
  const double elapsed = std::max(elapsed_s, 1e-9);
  // memtier casts its rates to long; so do we, so graphs of both agree.
  client_.Gauge("ops_sec", static_cast<long>(ops));
  client_.Gauge("ops_sec_avg", static_cast<long>(static_cast<double>(ops_) / elapsed));
  client_.Gauge("bytes_sec", static_cast<long>(bytes));
  client_.Gauge("bytes_sec_avg", static_cast<long>(static_cast<double>(bytes_) / elapsed));
  client_.Timing("latency_ms", point.latency.avg_ms);
  client_.Timing("latency_avg_ms", ops_ > 0 ? latency_sum_ms_ / static_cast<double>(ops_) : 0);
  client_.Gauge("connections", connections);
  client_.Gauge("progress_pct", ProgressPct(ops_, elapsed_s));
  // memtier sends the percentiles of the second only when it had replies.
  if (ops == 0) return;
  for (size_t i = 0; i < plan_.percentiles.size() && i < point.latency.percentiles_ms.size(); ++i) {
    client_.Gauge(PercentileMetricName(plan_.percentiles[i]), point.latency.percentiles_ms[i]);
  }
}

void StatsdEmitter::Finished(const Report& report) {
  // memtier's last tick, after every thread ended: the whole run's averages, no connections.
  const double secs = report.seconds() > 0 ? report.seconds() : 1;
  const SectionStats& t = report.totals;
  client_.Gauge("ops_sec_avg", static_cast<long>(static_cast<double>(t.count) / secs));
  client_.Gauge("bytes_sec_avg",
                static_cast<long>(static_cast<double>(t.bytes_rx + t.bytes_tx) / secs));
  client_.Timing("latency_avg_ms", t.latency.avg_ms);
  client_.Gauge("connections", 0L);
  client_.Gauge("progress_pct", ProgressPct(t.count, secs));
  if (report.connection_errors > 0) {
    client_.Gauge("connection_errors", static_cast<long>(report.connection_errors));
  }
  if (events_) events_->Post("Benchmark Completed", "run=1", "memtier,end");
  for (const char* name :
       {"ops_sec", "ops_sec_avg", "bytes_sec", "bytes_sec_avg", "progress_pct"}) {
    client_.Gauge(name, 0L);
  }
}

}  // namespace dfbench::loadgen
