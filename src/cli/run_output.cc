#include "cli/run_output.h"

#include "core/log.h"
#include "core/standard_output.h"
#include "results/writers.h"
#include "scenarios/replication/replication.h"

namespace dfbench::cli {

namespace {

// The writers of one result kind, one per format.
template <class Results>
struct Writers {
  std::string (*table)(const Results&);
  std::string (*json)(const Results&);
  std::string (*csv)(const Results&);
};

template <class Results>
std::string Write(const Results& r, OutputFormat format, const Writers<Results>& writers) {
  switch (format) {
    case OutputFormat::kJson:
      return writers.json(r);
    case OutputFormat::kCsv:
      return writers.csv(r);
    case OutputFormat::kTable:
      break;
  }
  return writers.table(r);
}

// The per-generator table below the engines' (a table's), "" when no trial had several.
std::string ClientSection(const std::vector<results::EngineResult>& engines, OutputFormat format,
                          bool per_client) {
  if (!per_client || format != OutputFormat::kTable) return "";
  const std::string table = results::RenderClientTable(engines);
  return table.empty() ? "" : "\nload generators:\n" + table;
}

}  // namespace

std::string Render(const results::RunResults& r, OutputFormat format, bool per_client) {
  return Write(r, format,
               Writers<results::RunResults>{results::RenderRunTable, results::RenderRunJson,
                                            results::RenderRunCsv}) +
         ClientSection(r.engines, format, per_client);
}

std::string Render(const results::CommandRunResults& r, OutputFormat format, bool per_client) {
  return Write(r, format,
               Writers<results::CommandRunResults>{results::RenderCommandRunTable,
                                                   results::RenderCommandRunJson,
                                                   results::RenderCommandRunCsv}) +
         ClientSection(results::EngineRows(r), format, per_client);
}

std::string Render(const results::SweepResults& r, OutputFormat format) {
  return Write(r, format,
               Writers<results::SweepResults>{results::RenderSweepTable, results::RenderSweepJson,
                                              results::RenderSweepCsv});
}

std::string Render(const results::MemoryRunResults& r, OutputFormat format) {
  return Write(
      r, format,
      Writers<results::MemoryRunResults>{results::RenderMemoryTable, results::RenderMemoryJson,
                                         results::RenderMemoryCsv});
}

std::string Render(const results::ReplicationRunResults& r, OutputFormat format) {
  return Write(r, format,
               Writers<results::ReplicationRunResults>{scenarios::RenderReplicationTable,
                                                       results::RenderReplicationJson,
                                                       results::RenderReplicationCsv});
}

int ExitCode(std::optional<results::RunStatus> run_status) {
  if (run_status == results::RunStatus::kInterrupted) {
    return static_cast<int>(core::ErrorKind::kInterrupted);
  }
  if (run_status != results::RunStatus::kCompleted) {
    core::Note("one or more engines failed; see the error column");
    return static_cast<int>(core::ErrorKind::kFailure);
  }
  return 0;
}

core::Result<int> Publish(const std::string& rendered, const std::filesystem::path& results_path,
                          const std::optional<core::Error>& unsaved_error,
                          std::optional<results::RunStatus> run_status) {
  core::WriteStdout(rendered);
  if (unsaved_error) return tl::unexpected(*unsaved_error);
  core::Notef("results: {}", results_path.string());
  return ExitCode(run_status);
}

}  // namespace dfbench::cli
