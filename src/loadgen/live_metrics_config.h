// Where a run sends its live metrics while it runs: StatsD gauges and Graphite event annotations
// (memtier_benchmark's --statsd-* and --graphite-port, with its defaults) and our Prometheus
// endpoint. Every part is off unless its host or port is given.
#pragma once

#include <string>

namespace dfbench::loadgen {

struct LiveMetricsConfig {
  std::string statsd_host;  // "": no StatsD, and no Graphite events (memtier posts them there)
  int statsd_port = 8125;
  std::string statsd_prefix = "memtier";
  std::string statsd_run_label = "default";
  int graphite_port = 8080;
  int prometheus_port = 0;  // 0: no endpoint
  std::string prometheus_bind = "127.0.0.1";
};

}  // namespace dfbench::loadgen
