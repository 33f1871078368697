#include "results/memory_schema.h"

#include <algorithm>

#include "results/json_util.h"
#include "results/run_fields.h"

namespace dfbench::results {
namespace {

std::vector<double> TrialValues(const std::vector<MemoryTrial>& trials,
                                double (*value)(const MemoryTrial&),
                                bool (*counts)(const MemoryTrial&)) {
  std::vector<double> values;
  for (const auto& t : trials) {
    if (counts(t)) values.push_back(value(t));
  }
  return values;
}

bool Always(const MemoryTrial& /*t*/) {
  return true;
}
bool SnapshotDone(const MemoryTrial& t) {
  return t.snapshot_status == kSnapshotOk;
}

nlohmann::json ToJson(const MemorySample& s) {
  return {{"t_sec", JsonNumber(s.t_sec)},
          {"pss_bytes", s.pss_bytes},
          {"rss_bytes", s.rss_bytes},
          {"processes", s.processes},
          {"mem_available_bytes", s.mem_available_bytes}};
}

nlohmann::json ToJson(const PhaseLoad& p) {
  return {{"ops_per_sec", JsonNumber(p.ops_per_sec)},
          {"p99_ms", JsonNumber(p.p99_ms)},
          {"seconds", p.seconds}};
}

nlohmann::json TrialJson(const MemoryTrial& t) {
  nlohmann::json memory = nlohmann::json::array();
  for (const auto& s : t.memory) memory.push_back(ToJson(s));
  nlohmann::json load = nlohmann::json::array();
  for (const auto& s : t.load) load.push_back(ToJson(s));
  return {{"trial", t.trial},
          {"populate", t.populate},
          {"keys", t.keys},
          {"populate_sec", JsonNumber(t.populate_sec)},
          {"empty_pss_bytes", t.empty_pss_bytes},
          {"idle_pss_bytes", t.idle_pss_bytes},
          {"idle_rss_bytes", t.idle_rss_bytes},
          {"empty_info_bytes", t.empty_info_bytes},
          {"idle_info_bytes", t.idle_info_bytes},
          {"bytes_per_key", JsonNumber(t.bytes_per_key)},
          {"info_bytes_per_key", JsonNumber(t.info_bytes_per_key)},
          {"peak_pss_bytes", t.peak_pss_bytes},
          {"peak_rss_bytes", t.peak_rss_bytes},
          {"peak_processes", t.peak_processes},
          {"mem_available_drop_bytes", t.mem_available_drop_bytes},
          {"snapshot_status", t.snapshot_status},
          {"snapshot_error", t.snapshot_error},
          {"load_start_sec", JsonNumber(t.load_start_sec)},
          {"load_end_sec", JsonNumber(t.load_end_sec)},
          {"snapshot_start_sec", JsonNumber(t.snapshot_start_sec)},
          {"snapshot_end_sec", JsonNumber(t.snapshot_end_sec)},
          {"snapshot_duration_ms", JsonNumber(t.snapshot_duration_ms)},
          {"snapshot_info_sec", JsonNumber(t.snapshot_info_sec)},
          {"before", ToJson(t.before)},
          {"during", ToJson(t.during)},
          {"after", ToJson(t.after)},
          {"load_args", t.load_args},
          {"memory", std::move(memory)},
          {"load", std::move(load)}};
}

nlohmann::json ToJson(const MemoryEngineResult& e) {
  nlohmann::json trials = nlohmann::json::array();
  for (const auto& t : e.trials) trials.push_back(TrialJson(t));
  return {{"engine", e.engine},
          {"version", e.version},
          {"tuning", e.tuning},
          {"engine_args", e.engine_args},
          {"error", e.error},
          {"idle_bytes", ToJson(e.idle_bytes)},
          {"bytes_per_key", ToJson(e.bytes_per_key)},
          {"info_bytes_per_key", ToJson(e.info_bytes_per_key)},
          {"peak_bytes", ToJson(e.peak_bytes)},
          {"snapshot_duration_ms", ToJson(e.snapshot_duration_ms)},
          {"trials", std::move(trials)}};
}

nlohmann::json ToJson(const MemorySettings& s) {
  return {{"keys", s.keys},
          {"value_size", s.value_size},
          {"snapshot", s.snapshot},
          {"update_rate", JsonNumber(s.update_rate)},
          {"test_time_sec", JsonNumber(s.test_time_sec)},
          {"snapshot_delay_sec", JsonNumber(s.snapshot_delay_sec)},
          {"ratio", s.ratio},
          {"threads", s.threads},
          {"clients", s.clients},
          {"pipeline", s.pipeline},
          {"trials", s.trials},
          {"snapshot_dir", s.snapshot_dir}};
}

bool Read(const nlohmann::json& j, const std::string& path, MemorySample* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("t_sec", &out->t_sec);
  r.Field("pss_bytes", &out->pss_bytes);
  r.Field("rss_bytes", &out->rss_bytes);
  r.Field("processes", &out->processes);
  r.Field("mem_available_bytes", &out->mem_available_bytes);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, PhaseLoad* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("ops_per_sec", &out->ops_per_sec);
  r.Field("p99_ms", &out->p99_ms);
  r.Field("seconds", &out->seconds);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, MemoryTrial* out, std::string* error) {
  JsonReader r(j, path, error);
  r.Field("trial", &out->trial);
  r.Field("populate", &out->populate);
  r.Field("keys", &out->keys);
  r.Field("populate_sec", &out->populate_sec);
  r.Field("empty_pss_bytes", &out->empty_pss_bytes);
  r.Field("idle_pss_bytes", &out->idle_pss_bytes);
  r.Field("idle_rss_bytes", &out->idle_rss_bytes);
  r.Field("empty_info_bytes", &out->empty_info_bytes);
  r.Field("idle_info_bytes", &out->idle_info_bytes);
  r.Field("bytes_per_key", &out->bytes_per_key);
  r.Field("info_bytes_per_key", &out->info_bytes_per_key);
  r.Field("peak_pss_bytes", &out->peak_pss_bytes);
  r.Field("peak_rss_bytes", &out->peak_rss_bytes);
  r.Field("peak_processes", &out->peak_processes);
  r.Field("mem_available_drop_bytes", &out->mem_available_drop_bytes);
  r.Field("snapshot_status", &out->snapshot_status);
  r.Field("snapshot_error", &out->snapshot_error);
  r.Field("load_start_sec", &out->load_start_sec);
  r.Field("load_end_sec", &out->load_end_sec);
  r.Field("snapshot_start_sec", &out->snapshot_start_sec);
  r.Field("snapshot_end_sec", &out->snapshot_end_sec);
  r.Field("snapshot_duration_ms", &out->snapshot_duration_ms);
  r.Field("snapshot_info_sec", &out->snapshot_info_sec);
  r.Object("before", &out->before, Read);
  r.Object("during", &out->during, Read);
  r.Object("after", &out->after, Read);
  r.Field("load_args", &out->load_args);
  r.Array("memory", &out->memory, Read);
  r.Array("load", &out->load, FromJsonAt<RepSample>);
  return r.ok();
}

bool ReadStats(const nlohmann::json& j, const std::string& path, Stats* out, std::string* error) {
  return FromJsonAt(j, path, out, error);
}

bool Read(const nlohmann::json& j, const std::string& path, MemoryEngineResult* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("engine", &out->engine);
  r.Field("version", &out->version);
  r.Field("tuning", &out->tuning);
  r.Field("engine_args", &out->engine_args);
  r.Field("error", &out->error);
  r.Object("idle_bytes", &out->idle_bytes, ReadStats);
  r.Object("bytes_per_key", &out->bytes_per_key, ReadStats);
  r.Object("info_bytes_per_key", &out->info_bytes_per_key, ReadStats);
  r.Object("peak_bytes", &out->peak_bytes, ReadStats);
  r.Object("snapshot_duration_ms", &out->snapshot_duration_ms, ReadStats);
  r.Array("trials", &out->trials, Read);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, MemorySettings* out,
          std::string* error) {
  JsonReader r(j, path, error);
  r.Field("keys", &out->keys);
  r.Field("value_size", &out->value_size);
  r.Field("snapshot", &out->snapshot);
  r.Field("update_rate", &out->update_rate);
  r.Field("test_time_sec", &out->test_time_sec);
  r.Field("snapshot_delay_sec", &out->snapshot_delay_sec);
  r.Field("ratio", &out->ratio);
  r.Field("threads", &out->threads);
  r.Field("clients", &out->clients);
  r.Field("pipeline", &out->pipeline);
  r.Field("trials", &out->trials);
  r.Field("snapshot_dir", &out->snapshot_dir);
  return r.ok();
}

bool Read(const nlohmann::json& j, const std::string& path, MemoryRunResults* out,
          std::string* error) {
  JsonReader r(j, path, error);
  if (!ReadScenario(r, "memory", &out->scenario, error)) return false;
  ReadRunFields(r, out);
  r.Field("server_instance", &out->server_instance);
  r.Field("client_instance", &out->client_instance);
  r.Object("settings", &out->settings, Read);
  r.Array("engines", &out->engines, Read);
  r.Object("context", &out->context, FromJsonAt<Context>);
  return r.ok();
}

const KeyOrder& MemoryKeyOrder() {
  static const KeyOrder order = [] {
    KeyOrder order = SharedKeyOrder();
    order["engines"] = {"engine",        "version",
                        "tuning",        "engine_args",
                        "error",         "idle_bytes",
                        "bytes_per_key", "info_bytes_per_key",
                        "peak_bytes",    "snapshot_duration_ms",
                        "trials"};
    order["trials"] = MemoryTrialScalars();
    for (const char* key : {"before", "during", "after", "load_args", "memory", "load"}) {
      order["trials"].emplace_back(key);
    }
    order[""] = {"scenario",        "run_id",   "setup_id", "created_at",
                 "completed_at",    "status",   "region",   "server_instance",
                 "client_instance", "settings", "engines",  "context"};
    order["settings"] = {"keys",          "value_size",         "snapshot", "update_rate",
                         "test_time_sec", "snapshot_delay_sec", "ratio",    "threads",
                         "clients",       "pipeline",           "trials",   "snapshot_dir"};
    order["memory"] = {"t_sec", "pss_bytes", "rss_bytes", "processes", "mem_available_bytes"};
    order["load"] = {"t_sec", "rps", "p99_us"};
    for (const char* phase : {"before", "during", "after"}) {
      order[phase] = {"ops_per_sec", "p99_ms", "seconds"};
    }
    for (const char* stats : {"idle_bytes", "bytes_per_key", "info_bytes_per_key", "peak_bytes",
                              "snapshot_duration_ms"}) {
      order[stats] = order.at("throughput");
    }
    return order;
  }();
  return order;
}

}  // namespace

const std::vector<std::string>& MemoryTrialScalars() {
  static const std::vector<std::string> fields = {"trial",
                                                  "populate",
                                                  "keys",
                                                  "populate_sec",
                                                  "empty_pss_bytes",
                                                  "idle_pss_bytes",
                                                  "idle_rss_bytes",
                                                  "empty_info_bytes",
                                                  "idle_info_bytes",
                                                  "bytes_per_key",
                                                  "info_bytes_per_key",
                                                  "peak_pss_bytes",
                                                  "peak_rss_bytes",
                                                  "peak_processes",
                                                  "mem_available_drop_bytes",
                                                  "snapshot_status",
                                                  "snapshot_error",
                                                  "load_start_sec",
                                                  "load_end_sec",
                                                  "snapshot_start_sec",
                                                  "snapshot_end_sec",
                                                  "snapshot_duration_ms",
                                                  "snapshot_info_sec"};
  return fields;
}

nlohmann::json ToJson(const MemoryTrial& t) {
  return TrialJson(t);
}

void MemoryEngineResult::Aggregate() {
  idle_bytes = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return static_cast<double>(t.idle_pss_bytes); }, Always));
  bytes_per_key = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return t.bytes_per_key; }, Always));
  info_bytes_per_key = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return t.info_bytes_per_key; }, Always));
  peak_bytes = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return static_cast<double>(t.peak_pss_bytes); }, Always));
  snapshot_duration_ms = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return t.snapshot_duration_ms; }, SnapshotDone));
}

PhaseLoad SummarizePhase(const std::vector<RepSample>& load, double from_sec, double to_sec,
                         PhaseSeconds which) {
  PhaseLoad p;
  std::vector<double> p99s;
  double total = 0;
  for (const auto& s : load) {
    const bool inside = s.t_sec - 1 >= from_sec && s.t_sec <= to_sec;
    const bool touches = s.t_sec > from_sec && s.t_sec - 1 < to_sec;
    if (!(which == PhaseSeconds::kInside ? inside : touches)) continue;
    total += s.rps;
    p99s.push_back(s.p99_us / 1000);
  }
  p.seconds = static_cast<int>(p99s.size());
  if (p.seconds == 0) return p;
  p.ops_per_sec = total / p.seconds;
  p.p99_ms = Summarize(p99s).median;
  return p;
}

nlohmann::json ToJson(const MemoryRunResults& r) {
  nlohmann::json engines = nlohmann::json::array();
  for (const auto& e : r.engines) engines.push_back(ToJson(e));
  nlohmann::json j = RunFieldsToJson(r);
  j.update({{"scenario", "memory"},
            {"server_instance", r.server_instance},
            {"client_instance", r.client_instance},
            {"settings", ToJson(r.settings)},
            {"engines", std::move(engines)},
            {"context", ToJson(r.context)}});
  return j;
}

bool FromJson(const nlohmann::json& j, MemoryRunResults* out, std::string* error) {
  if (!j.is_object()) return JsonReader::Mismatch("", "an object", error);
  MemoryRunResults value;
  if (!Read(j, "", &value, error)) return false;
  *out = std::move(value);
  return true;
}

std::string RenderMemoryJson(const MemoryRunResults& r) {
  return DumpPretty(Ordered(ToJson(r), MemoryKeyOrder()));
}

}  // namespace dfbench::results
