// The CSV and the table of a memory run (its JSON is in memory_schema.cc).
#include "core/format.h"
#include "core/table.h"
#include "results/memory_schema.h"
#include "results/number_format.h"
#include "results/writers.h"

namespace dfbench::results {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

std::string MiB(double bytes) {
  return Fixed(bytes / kMiB, 1);
}

// What the snapshot column says: its duration, or why there is none.
std::string SnapshotCell(const MemoryEngineResult& e) {
  if (e.trials.empty()) return "";
  const MemoryTrial& last = e.trials.back();
  if (last.snapshot_status == kSnapshotFailed) return "failed";
  if (last.snapshot_status != kSnapshotOk) return "-";
  return Fixed(e.snapshot_duration_ms.median / 1000, 2) + " s";
}

// The row's note: the engine's error, else a failed trial's reason, else a failed snapshot's
// message.
std::string NoteCell(const MemoryEngineResult& e) {
  if (!e.error.empty()) return e.error;
  for (const auto& t : e.trials) {
    if (!t.failed.empty()) return core::Format("trial {} failed: {}", t.trial, t.failed);
  }
  for (const auto& t : e.trials) {
    if (!t.snapshot_error.empty()) return "snapshot: " + t.snapshot_error;
  }
  return "";
}

// A phase's throughput, "-" when no second of the updates fell in it (no snapshot).
std::string OpsCell(const PhaseLoad& p) {
  return p.seconds > 0 ? WithSeparators(p.ops_per_sec) : "-";
}

}  // namespace

std::string RenderMemoryCsv(const MemoryRunResults& r) {
  std::vector<std::string> header = {"engine", "version"};
  const auto& scalars = MemoryTrialScalars();
  header.insert(header.end(), scalars.begin(), scalars.end());
  for (const char* phase : {"before", "during", "after"}) {
    header.push_back(std::string("ops_per_sec_") + phase);
    header.push_back(std::string("p99_ms_") + phase);
  }
  std::string out = CsvRow(header);
  for (const auto& e : r.engines) {
    for (const auto& t : e.trials) {
      const nlohmann::json j = ToJson(t);
      std::vector<std::string> row = {e.engine, e.version};
      for (const auto& field : scalars) {
        const nlohmann::json& v = j.at(field);
        row.push_back(v.is_string() ? v.get<std::string>() : CsvNumber(v.get<double>()));
      }
      for (const PhaseLoad* p : {&t.before, &t.during, &t.after}) {
        row.push_back(CsvNumber(p->ops_per_sec));
        row.push_back(CsvNumber(p->p99_ms));
      }
      out += CsvRow(row);
    }
  }
  return out;
}

std::string RenderMemoryTable(const MemoryRunResults& r) {
  using Align = core::Table::Align;
  core::Table table(
      {"engine", "version", "idle MiB", "bytes/key", "INFO bytes/key", "peak MiB", "peak/idle",
       "snapshot", "ops/s before", "during", "after", "p99 ms during", "note"},
      {Align::kLeft, Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight,
       Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kRight,
       Align::kLeft});
  for (const auto& e : r.engines) {
    if (e.trials.empty()) {
      table.AddRow({e.engine, e.version, "", "", "", "", "", "", "", "", "", "", NoteCell(e)});
      continue;
    }
    // The phases of the last trial: a trial's load is one timeline, not a statistic.
    const MemoryTrial& t = e.trials.back();
    const double idle = e.idle_bytes.median;
    table.AddRow({e.engine, e.version, MiB(idle), WithSeparators(e.bytes_per_key.median),
                  WithSeparators(e.info_bytes_per_key.median), MiB(e.peak_bytes.median),
                  idle > 0 ? Fixed(e.peak_bytes.median / idle, 2) + "x" : "", SnapshotCell(e),
                  OpsCell(t.before), OpsCell(t.during), OpsCell(t.after),
                  t.during.seconds > 0 ? Fixed(t.during.p99_ms, 3) : "-", NoteCell(e)});
  }
  return core::Format("memory run {} ({} keys x {} B, snapshot {}):\n", r.run_id, r.settings.keys,
                      r.settings.value_size, r.settings.snapshot) +
         table.Render();
}

}  // namespace dfbench::results
