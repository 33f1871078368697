#include "results/memory_schema.h"

#include <algorithm>

#include "results/key_order.h"

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

bool Passed(const MemoryTrial& t) {
  return t.failed.empty();
}
bool SnapshotDone(const MemoryTrial& t) {
  return Passed(t) && t.snapshot_status == kSnapshotOk;
}

}  // namespace

const std::vector<std::string>& MemoryTrialScalars() {
  static const std::vector<std::string> fields =
      FieldKeys::Of<MemoryTrial>(FieldKeys::Which::kScalars);
  return fields;
}

void MemoryEngineResult::Aggregate() {
  idle_bytes = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return static_cast<double>(t.idle_pss_bytes); }, Passed));
  bytes_per_key = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return t.bytes_per_key; }, Passed));
  info_bytes_per_key = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return t.info_bytes_per_key; }, Passed));
  peak_bytes = Summarize(TrialValues(
      trials, [](const MemoryTrial& t) { return static_cast<double>(t.peak_pss_bytes); }, Passed));
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

std::string RenderMemoryJson(const MemoryRunResults& r) {
  return RenderDocument(r);
}

}  // namespace dfbench::results
