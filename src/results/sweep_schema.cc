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

// {"p50": ms, ..., "max": ms}.
nlohmann::json PercentilesJson(const std::vector<PercentileMs>& values) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& p : values) j[PercentileName(p.percentile)] = JsonNumber(p.ms);
  return j;
}

// PercentilesJson's object at `path` back into `out`, in ascending percentiles.
bool ReadPercentiles(const nlohmann::json& j, const std::string& path,
                     std::vector<PercentileMs>* out, std::string* error) {
  if (j.is_null()) return true;
  if (!j.is_object()) return JsonReader::Mismatch(path, "an object", error);
  for (const auto& [name, value] : j.items()) {
    const auto pct = PercentileFromName(name);
    double ms = 0;
    const std::string at = path + "." + name;
    if (!pct) return JsonReader::Mismatch(at, "a key p<percentile> or max", error);
    if (!JsonReader::Value(value, at, &ms, error)) return false;
    out->push_back({*pct, ms});
  }
  std::sort(out->begin(), out->end(),
            [](const auto& a, const auto& b) { return a.percentile < b.percentile; });
  return true;
}

std::optional<double> At(const std::vector<PercentileMs>& values, double percentile) {
  for (const auto& p : values) {
    if (std::abs(p.percentile - percentile) < 1e-9) return p.ms;
  }
  return std::nullopt;
}

}  // namespace

nlohmann::json ToJson(const SweepStep& s) {
  nlohmann::json j = {{"index", s.index},
                      {"phase", kStepPhaseNames.Name(s.phase)},
                      {"target_rate", JsonNumber(s.target_rate)},
                      {"achieved_rate", JsonNumber(s.measured.achieved_rate)},
                      {"latency_ms", PercentilesJson(s.measured.latency)},
                      {"errors", s.measured.errors},
                      {"client_cpu", JsonNumber(s.measured.client_cpu)},
                      {"passed", s.verdict.passed},
                      {"client_limited", s.verdict.client_limited},
                      {"reason", s.verdict.reason},
                      {"raw_file", s.measured.raw_file}};
  // Only where the generator measured its lateness (the built-in one, open loop).
  if (!s.measured.send_lag.empty()) {
    j["send_lag_ms"] = PercentilesJson(s.measured.send_lag);
    j["client_late"] = s.verdict.client_late;
  }
  return j;
}

bool Read(const nlohmann::json& j, const std::string& path, SweepStep* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("index", &out->index);
  r.Enum("phase", &out->phase, kStepPhaseNames);
  r.Field("target_rate", &out->target_rate);
  r.Field("achieved_rate", &out->measured.achieved_rate);
  nlohmann::json latency, send_lag;
  r.Field("latency_ms", &latency);
  r.Field("send_lag_ms", &send_lag);
  r.Optional("client_late", &out->verdict.client_late);
  r.Field("errors", &out->measured.errors);
  r.Field("client_cpu", &out->measured.client_cpu);
  r.Field("passed", &out->verdict.passed);
  r.Field("client_limited", &out->verdict.client_limited);
  r.Field("reason", &out->verdict.reason);
  r.Field("raw_file", &out->measured.raw_file);
  if (!r.ok()) return false;
  return ReadPercentiles(latency, path + ".latency_ms", &out->measured.latency, error) &&
         ReadPercentiles(send_lag, path + ".send_lag_ms", &out->measured.send_lag, error);
}

std::optional<double> StepMeasurement::LatencyAt(double percentile) const {
  return At(latency, percentile);
}

std::optional<double> StepMeasurement::SendLagAt(double percentile) const {
  return At(send_lag, percentile);
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
           {"index", "phase", "target_rate", "achieved_rate", "latency_ms", "send_lag_ms", "errors",
            "client_cpu", "passed", "client_limited", "client_late", "reason", "raw_file"}},
          {"latency_ms", {"p50", "p90", "p99", "p99.9", "max"}},
          {"send_lag_ms", {"p50", "p90", "p99", "p99.9", "max"}}});
}

}  // namespace dfbench::results
