#include "drivers/load_report.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/format.h"

namespace dfbench::drivers {
namespace {

using nlohmann::json;

// The results section, and how many runs it sums (memtier --run-count N aggregates N runs).
const json* FindResultsSection(const json& doc, int* runs) {
  *runs = 1;
  if (auto it = doc.find("ALL STATS"); it != doc.end() && it->is_object()) return &*it;
  static const std::string kAggregated = "AGGREGATED AVERAGE RESULTS";
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (it.key().rfind(kAggregated, 0) == 0 && it->is_object()) {
      // "AGGREGATED AVERAGE RESULTS (2 runs)"
      if (auto open = it.key().find('('); open != std::string::npos) {
        *runs = std::max(1, std::atoi(it.key().c_str() + open + 1));
      }
      return &*it;
    }
  }
  return nullptr;
}

double NumberOr(const json& obj, const char* key, double fallback) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_number()) return fallback;
  return it->get<double>();
}

// Percentile keys look like "p50.00", "p99.90", "p99.99" or "p100.0"; compare numerically.
std::optional<double> Percentile(const json& percentiles, double wanted) {
  for (auto it = percentiles.begin(); it != percentiles.end(); ++it) {
    const std::string& key = it.key();
    if (key.size() < 2 || key[0] != 'p' || !it->is_number()) continue;
    char* end = nullptr;
    double p = std::strtod(key.c_str() + 1, &end);
    if (end == key.c_str() + 1) continue;
    if (std::fabs(p - wanted) < 1e-6) return it->get<double>();
  }
  return std::nullopt;
}

// memtier truncates the Totals average to an integer millisecond ("Average Latency": 0.0 or
// 1.0), so weight the per-command sections' averages by their counts instead.
double AverageLatency(const json& section, const json& totals) {
  double weighted = 0, count = 0;
  for (auto it = section.begin(); it != section.end(); ++it) {
    if (it.key() == "Totals" || !it->is_object()) continue;
    const double c = NumberOr(*it, "Count", 0);
    if (c > 0 && it->contains("Average Latency")) {
      weighted += c * NumberOr(*it, "Average Latency", 0);
      count += c;
    }
  }
  if (count > 0) return weighted / count;
  return NumberOr(totals, "Average Latency", NumberOr(totals, "Latency", 0));
}

}  // namespace

core::Result<results::TrialResult> ParseLoadReport(const std::string& json_text,
                                                   const ReportOptions& options) {
  json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return core::Fail(core::ErrorKind::kUsage, "load report is not valid JSON");
  }
  int runs = 1;
  const json* section = FindResultsSection(doc, &runs);
  if (!section) return core::Fail(core::ErrorKind::kUsage, "load report has no results section");
  auto totals = section->find("Totals");
  if (totals == section->end() || !totals->is_object()) {
    return core::Fail(core::ErrorKind::kUsage, "load report has no Totals");
  }
  results::TrialResult t;
  const double count = NumberOr(*totals, "Count", -1);
  if (count < 0) return core::Fail(core::ErrorKind::kUsage, "load report has no Totals.Count");
  t.ops = static_cast<uint64_t>(count);

  double duration_sec = 0;
  if (options.test_time_sec && *options.test_time_sec > 0) {
    duration_sec = *options.test_time_sec * runs;  // the aggregate counts every run
  } else if (auto rt = section->find("Runtime"); rt != section->end() && rt->is_object()) {
    duration_sec = NumberOr(*rt, "Total duration", 0) / 1000.0;
  }
  t.duration_sec = duration_sec;
  if (duration_sec > 0) {
    t.throughput = count / duration_sec;
  } else {
    t.throughput = NumberOr(*totals, "Ops/sec", 0);
  }
  t.avg_latency = AverageLatency(*section, *totals);
  if (auto pl = totals->find("Percentile Latencies"); pl != totals->end() && pl->is_object()) {
    t.p50 = Percentile(*pl, 50).value_or(0);
    t.p99 = Percentile(*pl, 99).value_or(0);
    t.p999 = Percentile(*pl, 99.9).value_or(0);
  }
  if (auto ext = doc.find("dfbench"); ext != doc.end() && ext->is_object()) {
    t.errors = static_cast<uint64_t>(NumberOr(*ext, "errors", 0));
    if (auto early = ext->find("ended_early"); early != ext->end() && early->is_object()) {
      const auto reason = early->find("reason");
      t.ended_early =
          core::Format("{} at {:.2f} s of {:.2f} s",
                       reason != early->end() && reason->is_string() ? reason->get<std::string>()
                                                                     : std::string("cut"),
                       NumberOr(*early, "at_sec", 0), duration_sec);
    }
    if (auto cpu = ext->find("client_cpu"); cpu != ext->end() && cpu->is_object()) {
      t.client_cpu = NumberOr(*cpu, "utilization", 0);
      t.client_cpu_demand = std::max(t.client_cpu, NumberOr(*cpu, "demand", 0));
      t.client_bound = t.client_cpu_demand >= results::kClientBoundCpu;
    }
  } else {
    t.errors = static_cast<uint64_t>(NumberOr(*totals, "Connection Errors", 0));
  }
  return t;
}

core::Result<results::StepMeasurement> ParseStepMeasurement(
    const std::string& json_text, const std::vector<double>& percentiles) {
  auto trial = ParseLoadReport(json_text);
  if (!trial) return tl::unexpected(trial.error());
  results::StepMeasurement m{.achieved_rate = trial->throughput,
                             .ops = trial->ops,
                             .errors = trial->errors,
                             .ended_early = trial->ended_early};
  // ParseLoadReport accepted the document, so it parses and has its Totals.
  const json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  int runs = 1;
  const json& totals = FindResultsSection(doc, &runs)->at("Totals");
  if (auto pl = totals.find("Percentile Latencies"); pl != totals.end() && pl->is_object()) {
    for (double p : percentiles) {
      if (auto v = Percentile(*pl, p)) m.latency.push_back({p, *v});
    }
  }
  if (totals.contains("Max Latency"))
    m.latency.push_back({100, NumberOr(totals, "Max Latency", 0)});
  m.client_cpu = trial->client_cpu;
  // The built-in generator's lateness (open loop), at the same percentiles.
  const json* lag = nullptr;
  if (auto d = doc.find("dfbench"); d != doc.end() && d->is_object()) {
    if (auto l = d->find("send_lag"); l != d->end() && l->is_object()) lag = &*l;
  }
  if (lag != nullptr) {
    if (auto pl = lag->find("Percentile Latencies"); pl != lag->end() && pl->is_object()) {
      for (double p : percentiles) {
        if (auto v = Percentile(*pl, p)) m.send_lag.push_back({p, *v});
      }
    }
    if (lag->contains("Max Latency")) m.send_lag.push_back({100, NumberOr(*lag, "Max Latency", 0)});
  }
  return m;
}

}  // namespace dfbench::drivers
