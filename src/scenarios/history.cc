#include "scenarios/history.h"

#include "core/files.h"
#include "core/log.h"
#include "core/time_format.h"
#include "results/command_schema.h"
#include "results/json_util.h"
#include "results/memory_schema.h"
#include "results/sweep_schema.h"
#include "results/writers.h"

namespace dfbench::scenarios {
namespace {

// Rewrites a results.json of `kind` with status "interrupted", through its own schema so the
// file keeps the layout every writer gives it.
core::Status MarkResultsInterrupted(const std::filesystem::path& path, const std::string& kind,
                                    const std::string& completed_at) {
  auto text = core::ReadFile(path);
  if (!text) return tl::unexpected(text.error());
  auto j = results::ParseJson(*text);
  if (!j) return tl::unexpected(core::WithContext(j.error(), path.string()));
  std::string error, rendered;
  if (kind == "commands") {
    results::CommandRunResults r;
    if (!results::FromJson(*j, &r, &error)) return core::Fail(core::ErrorKind::kUsage, error);
    r.status = results::RunStatus::kInterrupted;
    if (r.completed_at.empty()) r.completed_at = completed_at;
    rendered = results::RenderCommandRunJson(r);
  } else if (kind == "sweep") {
    results::SweepResults r;
    if (!results::FromJson(*j, &r, &error)) return core::Fail(core::ErrorKind::kUsage, error);
    r.status = results::RunStatus::kInterrupted;
    if (r.completed_at.empty()) r.completed_at = completed_at;
    rendered = results::RenderSweepJson(r);
  } else if (kind == "memory") {
    results::MemoryRunResults r;
    if (!results::FromJson(*j, &r, &error)) return core::Fail(core::ErrorKind::kUsage, error);
    r.status = results::RunStatus::kInterrupted;
    if (r.completed_at.empty()) r.completed_at = completed_at;
    rendered = results::RenderMemoryJson(r);
  } else {
    results::RunResults r;
    if (!results::FromJson(*j, &r, &error)) return core::Fail(core::ErrorKind::kUsage, error);
    r.status = results::RunStatus::kInterrupted;
    if (r.completed_at.empty()) r.completed_at = completed_at;
    rendered = results::RenderRunJson(r);
  }
  return core::WriteFileAtomic(path, rendered);
}

}  // namespace

core::Status RecordRunStart(state::SetupState* setup, state::BenchmarkRecord record) {
  record.status = results::RunStatus::kRunning;
  setup->benchmarks.push_back(std::move(record));
  return state::Save(setup);
}

void RecordRunEnd(state::SetupState* setup, const state::BenchmarkRecord& finished) {
  if (auto* b = setup->FindBenchmark(finished.run_id)) {
    *b = finished;
  } else {
    setup->benchmarks.push_back(finished);
  }
}

std::vector<std::string> InterruptRunningRecords(state::SetupState* setup) {
  std::vector<std::string> marked;
  const std::string now = core::NowIso8601();
  for (auto& b : setup->benchmarks) {
    if (b.status != results::RunStatus::kRunning) continue;
    b.status = results::RunStatus::kInterrupted;
    // The results file says when it last wrote; the record falls back to now.
    if (b.completed_at.empty()) b.completed_at = now;
    marked.push_back(b.run_id);
    const auto path = state::SetupDir(setup->id) / b.path;
    if (auto st = MarkResultsInterrupted(path, b.kind, b.completed_at); !st) {
      core::Notef("cannot mark {} interrupted: {}", path.string(), st.error().message);
    }
  }
  return marked;
}

}  // namespace dfbench::scenarios
