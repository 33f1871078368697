#include "scenarios/setup/history.h"

#include "core/files.h"
#include "core/log.h"
#include "core/time_format.h"
#include "results/command_schema.h"
#include "results/json_util.h"
#include "results/memory_schema.h"
#include "results/replication_schema.h"
#include "results/sweep_schema.h"
#include "results/writers.h"

namespace dfbench::scenarios {
namespace {

// `j` read as `Results`, with status "interrupted" (and `completed_at` when it has no end
// time), rendered again by `render`.
template <class Results>
core::Result<std::string> MarkedInterrupted(const nlohmann::json& j,
                                            const std::string& completed_at,
                                            std::string (*render)(const Results&)) {
  Results r;
  std::string error;
  if (!results::FromJson(j, &r, &error)) return core::Fail(core::ErrorKind::kUsage, error);
  r.status = results::RunStatus::kInterrupted;
  if (r.completed_at.empty()) r.completed_at = completed_at;
  return render(r);
}

// Rewrites a results.json of `kind` with status "interrupted", through its own schema so the
// file keeps the layout every writer gives it.
core::Status MarkResultsInterrupted(const std::filesystem::path& path, const std::string& kind,
                                    const std::string& completed_at) {
  auto text = core::ReadFile(path);
  if (!text) return tl::unexpected(text.error());
  auto j = results::ParseJson(*text);
  if (!j) return tl::unexpected(core::WithContext(j.error(), path.string()));
  core::Result<std::string> rendered =
      kind == "commands"      ? MarkedInterrupted(*j, completed_at, &results::RenderCommandRunJson)
      : kind == "sweep"       ? MarkedInterrupted(*j, completed_at, &results::RenderSweepJson)
      : kind == "memory"      ? MarkedInterrupted(*j, completed_at, &results::RenderMemoryJson)
      : kind == "replication" ? MarkedInterrupted(*j, completed_at, &results::RenderReplicationJson)
                              : MarkedInterrupted(*j, completed_at, &results::RenderRunJson);
  if (!rendered) return tl::unexpected(rendered.error());
  return core::WriteFileAtomic(path, *rendered);
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
