#include "results/memory_schema.h"

#include <algorithm>

#include "results/json_util.h"
#include "results/run_fields.h"
#include "results/schema_fields.h"

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

}  // namespace

void Fields(auto& v, FieldsOf<MemorySample> auto& x) {
  v.Field("t_sec", &x.t_sec);
  v.Field("pss_bytes", &x.pss_bytes);
  v.Field("rss_bytes", &x.rss_bytes);
  v.Field("processes", &x.processes);
  v.Field("mem_available_bytes", &x.mem_available_bytes);
}

void Fields(auto& v, FieldsOf<PhaseLoad> auto& x) {
  v.Field("ops_per_sec", &x.ops_per_sec);
  v.Field("p99_ms", &x.p99_ms);
  v.Field("seconds", &x.seconds);
}

void Fields(auto& v, FieldsOf<MemoryTrial> auto& x) {
  v.Field("trial", &x.trial);
  v.Field("populate", &x.populate);
  v.Field("keys", &x.keys);
  v.Field("populate_sec", &x.populate_sec);
  v.Field("empty_pss_bytes", &x.empty_pss_bytes);
  v.Field("idle_pss_bytes", &x.idle_pss_bytes);
  v.Field("idle_rss_bytes", &x.idle_rss_bytes);
  v.Field("empty_info_bytes", &x.empty_info_bytes);
  v.Field("idle_info_bytes", &x.idle_info_bytes);
  v.Field("bytes_per_key", &x.bytes_per_key);
  v.Field("info_bytes_per_key", &x.info_bytes_per_key);
  v.Field("peak_pss_bytes", &x.peak_pss_bytes);
  v.Field("peak_rss_bytes", &x.peak_rss_bytes);
  v.Field("peak_processes", &x.peak_processes);
  v.Field("mem_available_drop_bytes", &x.mem_available_drop_bytes);
  v.Field("snapshot_status", &x.snapshot_status);
  v.Field("snapshot_error", &x.snapshot_error);
  v.Field("load_start_sec", &x.load_start_sec);
  v.Field("load_end_sec", &x.load_end_sec);
  v.Field("snapshot_start_sec", &x.snapshot_start_sec);
  v.Field("snapshot_end_sec", &x.snapshot_end_sec);
  v.Field("snapshot_duration_ms", &x.snapshot_duration_ms);
  v.Field("snapshot_info_sec", &x.snapshot_info_sec);
  v.Field("before", &x.before);
  v.Field("during", &x.during);
  v.Field("after", &x.after);
  v.Field("load_args", &x.load_args);
  v.Field("memory", &x.memory);
  v.Field("load", &x.load);
}

void Fields(auto& v, FieldsOf<MemoryEngineResult> auto& x) {
  v.Field("engine", &x.engine);
  v.Field("version", &x.version);
  v.Field("tuning", &x.tuning);
  v.Field("engine_args", &x.engine_args);
  v.Field("error", &x.error);
  v.Field("idle_bytes", &x.idle_bytes);
  v.Field("bytes_per_key", &x.bytes_per_key);
  v.Field("info_bytes_per_key", &x.info_bytes_per_key);
  v.Field("peak_bytes", &x.peak_bytes);
  v.Field("snapshot_duration_ms", &x.snapshot_duration_ms);
  v.Field("trials", &x.trials);
}

void Fields(auto& v, FieldsOf<MemorySettings> auto& x) {
  v.Field("keys", &x.keys);
  v.Field("value_size", &x.value_size);
  v.Field("snapshot", &x.snapshot);
  v.Field("update_rate", &x.update_rate);
  v.Field("test_time_sec", &x.test_time_sec);
  v.Field("snapshot_delay_sec", &x.snapshot_delay_sec);
  v.Field("ratio", &x.ratio);
  v.Field("threads", &x.threads);
  v.Field("clients", &x.clients);
  v.Field("pipeline", &x.pipeline);
  v.Field("trials", &x.trials);
  v.Field("snapshot_dir", &x.snapshot_dir);
}

void Fields(auto& v, FieldsOf<MemoryRunResults> auto& x) {
  v.Field("scenario", &x.scenario);
  VisitRunFields(v, x);
  v.Field("settings", &x.settings);
  v.Field("engines", &x.engines);
  v.Field("context", &x.context);
}

namespace {

const KeyOrder& MemoryKeyOrder() {
  static const KeyOrder order = [] {
    KeyOrder order = SharedKeyOrder();
    order[""] = FieldKeys::Of<MemoryRunResults>();
    order["settings"] = FieldKeys::Of<MemorySettings>();
    order["engines"] = FieldKeys::Of<MemoryEngineResult>();
    order["trials"] = FieldKeys::Of<MemoryTrial>();
    order["memory"] = FieldKeys::Of<MemorySample>();
    order["load"] = FieldKeys::Of<RepSample>();
    for (const char* phase : {"before", "during", "after"}) {
      order[phase] = FieldKeys::Of<PhaseLoad>();
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
  static const std::vector<std::string> fields =
      FieldKeys::Of<MemoryTrial>(FieldKeys::Which::kScalars);
  return fields;
}

nlohmann::json ToJson(const MemoryTrial& t) {
  return FieldsToJson(t);
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
  return FieldsToJson(r);
}

bool FromJson(const nlohmann::json& j, MemoryRunResults* out, std::string* error) {
  return ReadScenarioDocument(j, "memory", out, error);
}

std::string RenderMemoryJson(const MemoryRunResults& r) {
  return DumpPretty(Ordered(ToJson(r), MemoryKeyOrder()));
}

}  // namespace dfbench::results
