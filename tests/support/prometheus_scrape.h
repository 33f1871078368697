// Reading a Prometheus text endpoint the way a scraper does, for tests of `dfbench loadgen
// --prometheus-port` and of the benchmarks that turn it on.
#pragma once

#include <map>
#include <string>

namespace dfbench::testing {

// One GET /metrics from 127.0.0.1:`port`; the body, or "" when the endpoint is not there (yet).
std::string ScrapeMetrics(int port);

// "name{labels} value" lines of a Prometheus text, by name and labels (comments skipped).
std::map<std::string, double> ParsePrometheus(const std::string& text);

}  // namespace dfbench::testing
