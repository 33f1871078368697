// Where a benchmark's load generators send live metrics while a pass runs, so a dashboard
// shows a whole run as it happens: memtier_benchmark's StatsD datagrams and the built-in
// generator's Prometheus endpoint, each pass under its own run label.
#pragma once

#include <string>

namespace dfbench::core {

struct LiveMetrics {
  std::string statsd_host;  // "": no StatsD (nor memtier's Graphite events, sent to that host)
  int statsd_port = 8125;
  // 0: no endpoint. Several generators of a pass on one client cannot share a port: generator
  // N (from 1) listens on prometheus_port + N - 1 (ForGenerator).
  int prometheus_port = 0;
  // The pass's label in metric names and labels: its raw report's name ("redis-t2",
  // "redis-warmup"), set by whoever names that file.
  std::string run_label;

  bool Enabled() const { return !statsd_host.empty() || prometheus_port > 0; }
  bool operator==(const LiveMetrics&) const = default;
};

// What generator `index` (from 0) of several in one pass sends: its label that of its own
// report ("redis-t2-1"), its Prometheus port `index` above the first.
inline LiveMetrics ForGenerator(LiveMetrics metrics, int index) {
  if (!metrics.Enabled()) return metrics;
  metrics.run_label += "-" + std::to_string(index + 1);
  if (metrics.prometheus_port > 0) metrics.prometheus_port += index;
  return metrics;
}

}  // namespace dfbench::core
