// --statsd and --prometheus-port of the benchmarks whose load runs in trials or steps (run,
// quickstart, run-commands, sweep): every load generator of every pass sends live metrics,
// labelled by the pass, so a dashboard shows the whole run as it happens.
#pragma once

#include <string>

#include "cli/command.h"
#include "core/live_metrics.h"
#include "drivers/driver.h"

namespace dfbench::cli {

struct BenchMetricsFlags {
  std::string statsd;       // HOST or HOST:PORT; "": none
  int prometheus_port = 0;  // 0: none
};
void AddBenchMetricsFlags(CLI::App* sub, BenchMetricsFlags* flags);

// What the generators send: --statsd split into host and port (8125 when not given), the
// Prometheus port of the first generator. Throws ExitError(kUsage) with one line naming the
// flag for a malformed --statsd, or ports past 65535 for `processes` generators.
core::LiveMetrics ToLiveMetrics(const BenchMetricsFlags& flags, int processes);

// Throws ExitError(kUsage), naming the flag, when `driver`'s generator cannot send `metrics`
// (drivers::CheckLiveMetrics): before anything starts.
void CheckLiveMetricsFor(const drivers::Driver& driver, const core::LiveMetrics& metrics);

}  // namespace dfbench::cli
