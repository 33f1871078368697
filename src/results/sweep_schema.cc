#include "results/sweep_schema.h"

#include <algorithm>
#include <charconv>

#include "core/format.h"
#include "results/key_order.h"

namespace dfbench::results {
namespace {

// "p50", "p99.9"; "max" for 100.
std::string PercentileName(double percentile) {
  return percentile >= 100 ? "max" : core::Format("p{}", percentile);
}

std::optional<double> PercentileFromName(const std::string& name) {
  if (name == "max") return 100;
  if (name.size() < 2 || name[0] != 'p') return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), v);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return v;
}

}  // namespace

nlohmann::json ToJson(const SweepStep& s) {
  nlohmann::json latency = nlohmann::json::object();
  for (const auto& p : s.measured.latency) latency[PercentileName(p.percentile)] = JsonNumber(p.ms);
  return {{"index", s.index},
          {"phase", kStepPhaseNames.Name(s.phase)},
          {"target_rate", JsonNumber(s.target_rate)},
          {"achieved_rate", JsonNumber(s.measured.achieved_rate)},
          {"latency_ms", std::move(latency)},
          {"errors", s.measured.errors},
          {"client_cpu", JsonNumber(s.measured.client_cpu)},
          {"passed", s.verdict.passed},
          {"client_limited", s.verdict.client_limited},
          {"reason", s.verdict.reason},
          {"raw_file", s.measured.raw_file}};
}

bool Read(const nlohmann::json& j, const std::string& path, SweepStep* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("index", &out->index);
  r.Enum("phase", &out->phase, kStepPhaseNames);
  r.Field("target_rate", &out->target_rate);
  r.Field("achieved_rate", &out->measured.achieved_rate);
  nlohmann::json latency;
  r.Field("latency_ms", &latency);
  r.Field("errors", &out->measured.errors);
  r.Field("client_cpu", &out->measured.client_cpu);
  r.Field("passed", &out->verdict.passed);
  r.Field("client_limited", &out->verdict.client_limited);
  r.Field("reason", &out->verdict.reason);
  r.Field("raw_file", &out->measured.raw_file);
  if (!r.ok()) return false;
  if (!latency.is_null() && !latency.is_object()) {
    return JsonReader::Mismatch(path + ".latency_ms", "an object", error);
  }
  for (const auto& [name, value] : latency.items()) {
    const auto pct = PercentileFromName(name);
    double ms = 0;
    const std::string at = path + ".latency_ms." + name;
    if (!pct) return JsonReader::Mismatch(at, "a key p<percentile> or max", error);
    if (!JsonReader::Value(value, at, &ms, error)) return false;
    out->measured.latency.push_back({*pct, ms});
  }
  std::sort(out->measured.latency.begin(), out->measured.latency.end(),
            [](const auto& a, const auto& b) { return a.percentile < b.percentile; });
  return true;
}

std::optional<double> StepMeasurement::LatencyAt(double percentile) const {
  for (const auto& p : latency) {
    if (std::abs(p.percentile - percentile) < 1e-9) return p.ms;
  }
  return std::nullopt;
}

double Confirmation::SpreadPct() const {
  int sustained = 0;
  for (const auto& r : round_rates) sustained += r.has_value();
  if (sustained < 2 || max_rate <= 0) return 0;
  return (max_rate - min_rate) / max_rate * 100;
}

nlohmann::json ToJson(const SweepResults& r) {
  nlohmann::json j = JsonWriter::ToValue(r);
  j["settings"]["memtier"].erase("requests");
  return j;
}

bool FromJson(const nlohmann::json& j, SweepResults* out, std::string* error) {
  if (!ReadScenarioDocument(j, out, error)) return false;
  // Absent in files written before failing steps were rerun: none were.
  const auto settings = j.find("settings");
  if (settings == j.end() || !settings->is_object() ||
      settings->value("recheck", nlohmann::json()).is_null()) {
    out->settings.recheck = 0;
  }
  return true;
}

// A step's keys in the order ToJson(SweepStep) writes them.
std::string RenderSweepJson(const SweepResults& r) {
  return RenderDocument(
      r, {{"steps",
           {"index", "phase", "target_rate", "achieved_rate", "latency_ms", "errors", "client_cpu",
            "passed", "client_limited", "reason", "raw_file"}},
          {"latency_ms", {"p50", "p90", "p99", "p99.9", "max"}}});
}

}  // namespace dfbench::results
