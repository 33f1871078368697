#include "cli/loadgen/live_metrics_flags.h"

#include "cli/flag_ranges.h"

namespace dfbench::cli {

void AddLiveMetricsFlags(CLI::App* sub, loadgen::LiveMetricsConfig* metrics) {
  using enum NumberKind;
  const std::string group = "Live metrics";
  sub->add_option("--statsd-host", metrics->statsd_host,
                  "Send memtier's metrics to this StatsD host over UDP, once a second "
                  "(default: none)")
      ->group(group);
  AddRangedOption(sub, "--statsd-port", &metrics->statsd_port, kInteger, "StatsD UDP port")
      ->group(group);
  sub->add_option("--statsd-prefix", metrics->statsd_prefix, "Prefix of the StatsD metric names")
      ->capture_default_str()
      ->group(group);
  sub->add_option("--statsd-run-label", metrics->statsd_run_label,
                  "Label of this run in the metric names and Graphite events")
      ->capture_default_str()
      ->group(group);
  AddRangedOption(sub, "--graphite-port", &metrics->graphite_port, kInteger,
                  "HTTP port of Graphite on the StatsD host: run start and end events")
      ->group(group);
  WithRange(sub->add_option("--prometheus-port", metrics->prometheus_port,
                            "Serve the run's counters and latency histogram at "
                            "http://BIND:PORT/metrics while it runs (default: none)"),
            kInteger)
      ->group(group);
  sub->add_option("--prometheus-bind", metrics->prometheus_bind,
                  "Address the Prometheus endpoint listens on")
      ->capture_default_str()
      ->group(group);
}

}  // namespace dfbench::cli
