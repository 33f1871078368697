// loadgen's live-metrics flags: memtier_benchmark's --statsd-* and --graphite-port, and our
// --prometheus-port / --prometheus-bind. Part of the client's files.
#pragma once

#include "cli/command.h"
#include "loadgen/live_metrics_config.h"

namespace dfbench::cli {

void AddLiveMetricsFlags(CLI::App* sub, loadgen::LiveMetricsConfig* metrics);

}  // namespace dfbench::cli
