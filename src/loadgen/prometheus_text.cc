#include "loadgen/prometheus_text.h"

#include <algorithm>
#include <cstdio>

namespace dfbench::loadgen {
namespace {

constexpr const char* kMetricPrefix = "dfbench_loadgen_";

// Label values escape backslash, double quote and newline.
std::string EscapeLabelValue(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '\\' || ch == '"') out += '\\';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += ch;
  }
  return out;
}

std::string PrometheusNumber(double v) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", v);
  return text;
}

void MetricHeader(std::string* out, const char* name, const char* type, const char* help) {
  *out += std::string("# HELP ") + kMetricPrefix + name + " " + help + "\n";
  *out += std::string("# TYPE ") + kMetricPrefix + name + " " + type + "\n";
}

struct CommandTotals {
  std::string command;
  SlotCounters counters;
  LatencyHistogram latency;
};

std::vector<CommandTotals> SumByCommand(const std::vector<CommandFigures>& figures) {
  std::vector<CommandTotals> merged;
  for (const auto& f : figures) {
    auto it = std::find_if(merged.begin(), merged.end(),
                           [&](const CommandTotals& m) { return m.command == f.command; });
    if (it == merged.end()) {
      merged.push_back(CommandTotals{.command = f.command, .counters = {}, .latency = {}});
      it = merged.end() - 1;
    }
    it->counters.Add(f.stats->counters);
    it->latency.Merge(f.stats->latency);
  }
  return merged;
}

// Cumulative counts at each bound: a bucket counts where its highest value falls, so a bound
// may take values up to 1/1000 above it (the histogram's resolution).
std::vector<uint64_t> CumulativeBucketCounts(const LatencyHistogram& h) {
  const auto& bounds = PrometheusLatencyBounds();
  std::vector<uint64_t> counts(bounds.size(), 0);
  h.ForEachBucket([&](uint64_t, uint64_t highest_ns, uint64_t count) {
    const double seconds = static_cast<double>(highest_ns) / 1e9;
    const auto first = std::lower_bound(bounds.begin(), bounds.end(), seconds);
    for (auto it = first; it != bounds.end(); ++it) counts[it - bounds.begin()] += count;
  });
  return counts;
}

}  // namespace

const std::vector<double>& PrometheusLatencyBounds() {
  static const std::vector<double> bounds = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                             0.01,   0.025,   0.05,   0.1,   0.25,   0.5,
                                             1,      2.5,     5,      10};
  return bounds;
}

std::string PrometheusText(const std::string& run_label, const std::vector<CommandFigures>& figures,
                           long connections) {
  const std::vector<CommandTotals> merged = SumByCommand(figures);
  const std::string run = "run=\"" + EscapeLabelValue(run_label) + "\"";
  std::string out;
  struct Counter {
    const char* name;
    const char* help;
    uint64_t SlotCounters::*field;
  };
  static constexpr Counter kCounters[] = {
      {"requests_total", "Requests answered successfully.", &SlotCounters::count},
      {"errors_total", "Requests answered with an error or never answered.", &SlotCounters::errors},
      {"hits_total", "GETs that found their key.", &SlotCounters::hits},
      {"misses_total", "GETs that did not find their key.", &SlotCounters::misses},
      {"received_bytes_total", "Bytes of replies received.", &SlotCounters::bytes_rx},
      {"sent_bytes_total", "Bytes of requests sent.", &SlotCounters::bytes_tx},
  };
  for (const Counter& c : kCounters) {
    MetricHeader(&out, c.name, "counter", c.help);
    for (const CommandTotals& m : merged) {
      out += std::string(kMetricPrefix) + c.name + "{" + run + ",command=\"" +
             EscapeLabelValue(m.command) + "\"} " + std::to_string(m.counters.*c.field) + "\n";
    }
  }
  MetricHeader(&out, "connections", "gauge", "Connections of the worker threads still running.");
  out +=
      std::string(kMetricPrefix) + "connections{" + run + "} " + std::to_string(connections) + "\n";
  MetricHeader(&out, "latency_seconds", "histogram",
               "Latency of the requests answered successfully.");
  const auto& bounds = PrometheusLatencyBounds();
  for (const CommandTotals& m : merged) {
    const std::string labels = run + ",command=\"" + EscapeLabelValue(m.command) + "\"";
    const std::vector<uint64_t> counts = CumulativeBucketCounts(m.latency);
    const std::string bucket = std::string(kMetricPrefix) + "latency_seconds_bucket{" + labels;
    for (size_t i = 0; i < bounds.size(); ++i) {
      out += bucket + ",le=\"" + PrometheusNumber(bounds[i]) + "\"} " + std::to_string(counts[i]) +
             "\n";
    }
    out += bucket + ",le=\"+Inf\"} " + std::to_string(m.latency.count()) + "\n";
    out += std::string(kMetricPrefix) + "latency_seconds_sum{" + labels + "} " +
           PrometheusNumber(m.counters.latency_sum_ns / 1e9) + "\n";
    out += std::string(kMetricPrefix) + "latency_seconds_count{" + labels + "} " +
           std::to_string(m.latency.count()) + "\n";
  }
  return out;
}

}  // namespace dfbench::loadgen
