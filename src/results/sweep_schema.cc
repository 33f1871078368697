#include "results/sweep_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "results/json_util.h"
#include "results/run_fields.h"

namespace dfbench::results {
namespace {

// "p50", "p99.9"; "max" for 100.
std::string PercentileName(double percentile) {
  return percentile >= 100 ? "max" : fmt::format("p{}", percentile);
}

std::optional<double> PercentileFromName(const std::string& name) {
  if (name == "max") return 100;
  if (name.size() < 2 || name[0] != 'p') return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), v);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return v;
}

nlohmann::json OptionalNumber(const std::optional<double>& v) {
  return v ? JsonNumber(*v) : nlohmann::json(nullptr);
}

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

nlohmann::json ToJson(const Confirmation& c) {
  nlohmann::json rounds = nlohmann::json::array();
  for (const auto& r : c.round_rates) rounds.push_back(OptionalNumber(r));
  return {{"round_rates", std::move(rounds)},
          {"min_rate", JsonNumber(c.min_rate)},
          {"max_rate", JsonNumber(c.max_rate)},
          {"spread_pct", JsonNumber(c.SpreadPct())}};
}

nlohmann::json ToJson(const SweepEngine& e) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : e.steps) steps.push_back(ToJson(s));
  return {{"engine", e.engine},
          {"version", e.version},
          {"tuning", e.tuning},
          {"error", e.error},
          {"capacity", JsonNumber(e.capacity)},
          {"found_rate", OptionalNumber(e.found_rate)},
          {"first_failing_rate", OptionalNumber(e.first_failing_rate)},
          {"confirmation", ToJson(e.confirmation)},
          {"steps", std::move(steps)}};
}

nlohmann::json ToJson(const SweepSettings& s) {
  nlohmann::json memtier = ToJson(s.memtier);
  memtier.erase("requests");
  return {{"memtier", std::move(memtier)},
          {"key_maximum", s.key_maximum},
          {"step_time_sec", JsonNumber(s.step_time_sec)},
          {"warmup_sec", JsonNumber(s.warmup_sec)},
          {"fractions", s.fractions},
          {"bracket", JsonNumber(s.bracket)},
          {"rate_tolerance", JsonNumber(s.rate_tolerance)},
          {"confirm", s.confirm},
          {"recheck", s.recheck}};
}

// ---- Reading ----

bool ReadOptional(const nlohmann::json& v, const std::string& path, std::optional<double>* out,
                  std::string* error) {
  if (v.is_null()) {
    *out = std::nullopt;
    return true;
  }
  double d = 0;
  if (!JsonReader::Value(v, path, &d, error)) return false;
  *out = d;
  return true;
}

// A number or null at `key` (absent: left as it is).
bool OptionalField(JsonReader& r, const std::string& path, const char* key,
                   std::optional<double>* out, std::string* error) {
  nlohmann::json v;
  r.Field(key, &v);
  return r.ok() && ReadOptional(v, path.empty() ? key : path + "." + key, out, error);
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

bool Read(const nlohmann::json& j, const std::string& path, Confirmation* out, std::string* error) {
  JsonReader r(j, path, error);
  nlohmann::json rounds;
  r.Field("round_rates", &rounds);
  r.Field("min_rate", &out->min_rate);
  r.Field("max_rate", &out->max_rate);
  if (!r.ok()) return false;
  return JsonReader::ReadArray<std::optional<double>>(rounds, path + ".round_rates",
                                                      &out->round_rates, ReadOptional, error);
}

bool Read(const nlohmann::json& j, const std::string& path, SweepEngine* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("engine", &out->engine);
  r.Field("version", &out->version);
  r.Field("tuning", &out->tuning);
  r.Field("error", &out->error);
  r.Field("capacity", &out->capacity);
  const bool rates = OptionalField(r, path, "found_rate", &out->found_rate, error) &&
                     OptionalField(r, path, "first_failing_rate", &out->first_failing_rate, error);
  r.Object("confirmation", &out->confirmation, Read);
  r.Array("steps", &out->steps, Read);
  return rates && r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, Objective* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("text", &out->text);
  r.Field("percentile", &out->percentile);
  r.Field("limit_ms", &out->limit_ms);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, SweepSettings* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Object("memtier", &out->memtier, FromJsonAt<MemtierConfig>);
  r.Field("key_maximum", &out->key_maximum);
  r.Field("step_time_sec", &out->step_time_sec);
  r.Field("warmup_sec", &out->warmup_sec);
  nlohmann::json fractions;
  r.Field("fractions", &fractions);
  r.Field("bracket", &out->bracket);
  r.Field("rate_tolerance", &out->rate_tolerance);
  r.Field("confirm", &out->confirm);
  out->recheck = 0;  // absent in files written before failing steps were rerun
  r.Field("recheck", &out->recheck);
  if (!r.ok()) return false;
  return JsonReader::ReadArray<double>(fractions, path + ".fractions", &out->fractions,
                                       JsonReader::Value, error);
}

bool Read(const nlohmann::json& j, const std::string& path, SweepResults* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("scenario", &out->scenario);
  if (r.ok() && out->scenario != "sweep") {
    *error = "scenario: expected \"sweep\", got \"" + out->scenario + "\"";
    return false;
  }
  ReadRunFields(r, out);
  r.Field("server_instance", &out->server_instance);
  r.Field("client_instance", &out->client_instance);
  r.Object("settings", &out->settings, Read);
  r.Array("objectives", &out->objectives, Read);
  r.Array("engines", &out->engines, Read);
  r.Object("context", &out->context, FromJsonAt<Context>);
  return r.ok();
}

const KeyOrder& SweepKeyOrder() {
  static const KeyOrder order = [] {
    KeyOrder order = SharedKeyOrder();
    order.insert({
        {"",
         {"scenario", "run_id", "setup_id", "created_at", "completed_at", "status", "region",
          "server_instance", "client_instance", "settings", "objectives", "engines", "context"}},
        {"settings",
         {"memtier", "key_maximum", "step_time_sec", "warmup_sec", "fractions", "bracket",
          "rate_tolerance", "confirm", "recheck"}},
        {"memtier",
         {"threads", "clients", "ratio", "data_size", "pipeline", "distinct_client_seed"}},
        {"objectives", {"text", "percentile", "limit_ms"}},
        {"engines",
         {"engine", "version", "capacity", "found_rate", "first_failing_rate", "confirmation",
          "error", "tuning", "steps"}},
        {"confirmation", {"round_rates", "min_rate", "max_rate", "spread_pct"}},
        {"steps",
         {"index", "phase", "target_rate", "achieved_rate", "latency_ms", "errors", "client_cpu",
          "passed", "client_limited", "reason", "raw_file"}},
        {"latency_ms", {"p50", "p90", "p99", "p99.9", "max"}},
    });
    return order;
  }();
  return order;
}

}  // namespace

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
  nlohmann::json objectives = nlohmann::json::array();
  for (const auto& o : r.objectives) {
    objectives.push_back({{"text", o.text},
                          {"percentile", JsonNumber(o.percentile)},
                          {"limit_ms", JsonNumber(o.limit_ms)}});
  }
  nlohmann::json engines = nlohmann::json::array();
  for (const auto& e : r.engines) engines.push_back(ToJson(e));
  nlohmann::json j = RunFieldsToJson(r);
  j.update({{"scenario", "sweep"},
            {"server_instance", r.server_instance},
            {"client_instance", r.client_instance},
            {"settings", ToJson(r.settings)},
            {"objectives", std::move(objectives)},
            {"engines", std::move(engines)},
            {"context", ToJson(r.context)}});
  return j;
}

bool FromJson(const nlohmann::json& j, SweepResults* out, std::string* error) {
  if (!j.is_object()) return JsonReader::Mismatch("", "an object", error);
  SweepResults value;
  if (!Read(j, "", &value, error)) return false;
  *out = std::move(value);
  return true;
}

std::string RenderSweepJson(const SweepResults& r) {
  return DumpPretty(Ordered(ToJson(r), SweepKeyOrder()));
}

}  // namespace dfbench::results
