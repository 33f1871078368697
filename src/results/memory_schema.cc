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
  DFBENCH_FIELDS(t_sec, pss_bytes, rss_bytes, processes, mem_available_bytes)
}

void Fields(auto& v, FieldsOf<PhaseLoad> auto& x) {
  DFBENCH_FIELDS(ops_per_sec, p99_ms, seconds)
}

void Fields(auto& v, FieldsOf<MemoryTrial> auto& x) {
  DFBENCH_FIELDS(trial, populate, keys, populate_sec, empty_pss_bytes, idle_pss_bytes,
                 idle_rss_bytes, empty_info_bytes, idle_info_bytes, bytes_per_key,
                 info_bytes_per_key, peak_pss_bytes, peak_rss_bytes, peak_processes,
                 mem_available_drop_bytes, snapshot_status, snapshot_error, load_start_sec,
                 load_end_sec, snapshot_start_sec, snapshot_end_sec, snapshot_duration_ms,
                 snapshot_info_sec, before, during, after, load_args, memory, load)
}

void Fields(auto& v, FieldsOf<MemoryEngineResult> auto& x) {
  DFBENCH_FIELDS(engine, version, tuning, engine_args, error, idle_bytes, bytes_per_key,
                 info_bytes_per_key, peak_bytes, snapshot_duration_ms, trials)
}

void Fields(auto& v, FieldsOf<MemorySettings> auto& x) {
  DFBENCH_FIELDS(keys, value_size, snapshot, update_rate, test_time_sec, snapshot_delay_sec, ratio,
                 threads, clients, pipeline, trials, snapshot_dir)
}

void Fields(auto& v, FieldsOf<MemoryRunResults> auto& x) {
  DFBENCH_FIELDS(scenario)
  VisitRunFields(v, x);
  DFBENCH_FIELDS(server_instance, client_instance, settings, engines, context)
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
