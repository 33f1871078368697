// What every benchmark scenario does around its own steps (after CheckRunnable): the opening
// fields of its results (a new run directory, the fleet's labels, the context), its start in
// the setup's history, and the closing fields (final status, end time, the history record).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/files.h"
#include "core/log.h"
#include "core/time_format.h"
#include "drivers/driver.h"
#include "providers/aws_provider.h"
#include "scenarios/engine_turn.h"
#include "scenarios/history.h"
#include "state/state.h"

namespace dfbench::scenarios {

// Opens a run's results in `dir`, the run `run_id`: <dir>/<raw_folder> created, and the fields
// every result file opens with (setup, the fleet's labels, start time, status "running",
// context).
template <class Results>
core::Status OpenResultsAt(const state::SetupState& setup, const drivers::Driver& driver,
                           const std::string& run_id, const std::filesystem::path& dir,
                           const std::string& raw_folder, Results* r) {
  if (auto st = core::MakeDirs(dir / raw_folder); !st) return st;
  r->run_id = run_id;
  r->setup_id = setup.id;
  const providers::FleetLabels labels = providers::RecordedFleetLabels(setup);
  r->region = labels.region;
  if constexpr (requires { r->aws_account; }) r->aws_account = labels.aws_account;
  if constexpr (requires { r->master_instance; }) {
    // A replication run names the server after its role.
    r->master_instance = labels.server_instance;
    r->replica_instance = labels.replica_instance;
  } else {
    r->server_instance = labels.server_instance;
  }
  r->client_instance = labels.client_instance;
  r->created_at = core::NowIso8601();
  r->status = results::RunStatus::kRunning;
  r->context = MakeContext(setup, driver);
  return core::Ok();
}

// OpenResultsAt for a new run under `parent` (e.g. <setup>/benchmarks): a new run id, its
// directory <parent>/<id>. Returns the run's directory.
template <class Results>
core::Result<std::filesystem::path> OpenResults(const state::SetupState& setup,
                                                const drivers::Driver& driver,
                                                const std::filesystem::path& parent,
                                                const std::string& raw_folder, Results* r) {
  const std::string run_id = NewRunId(parent);
  const std::filesystem::path dir = parent / run_id;
  if (auto st = OpenResultsAt(setup, driver, run_id, dir, raw_folder, r); !st) {
    return tl::unexpected(st.error());
  }
  return dir;
}

// A scenario's results files: results.json and its CSV file, each rendered from the results.
template <class Results>
struct ResultsFiles {
  std::string (*json)(const Results&);
  std::string csv_name;  // results.csv, or the reference's name for its kind
  std::string (*csv)(const Results&);
};

// The step that writes `r`'s files into `dir`, after every change of `r` (which outlives it).
// A file that cannot be written is a line on stderr: the run goes on and writes it again.
template <class Results>
std::function<void()> Publisher(const Results& r, const std::filesystem::path& dir,
                                ResultsFiles<Results> files) {
  return [&r, dir, files = std::move(files)] {
    core::Status st = core::WriteFileAtomic(dir / "results.json", files.json(r));
    if (st) st = core::WriteFileAtomic(dir / files.csv_name, files.csv(r));
    if (!st) core::Note(st.error().message);
  };
}

// Publishes the opened run (`save`: its results files) and records it in the setup's history
// as "running", of `kind` at `path` (relative to the setup), before the first engine starts:
// a killed run leaves a results file and a history entry for the next command to mark
// interrupted.
template <class Results>
core::Status StartResults(state::SetupState* setup, const std::string& kind,
                          const std::string& path, const std::function<void()>& save,
                          const Results& r) {
  save();
  return RecordRunStart(
      setup, {.kind = kind, .run_id = r.run_id, .path = path, .created_at = r.created_at});
}

// Closes the run: its final status from its rows (FinalStatus: any kind with an `error` and an
// `engine`, `failed` saying which failed) and its end time, `save` (the results files), then
// its history record of `kind` at `path` (relative to the setup), naming the engines (the
// caller saves the state).
template <class Results, class Row>
void CloseResults(
    state::SetupState* setup, bool interrupted, const std::vector<const Row*>& rows,
    const std::string& kind, const std::string& path, const std::function<void()>& save, Results* r,
    const std::type_identity_t<std::function<bool(const Row&)>>& failed = RowHasError<Row>) {
  r->status = FinalStatus(interrupted, rows, failed);
  r->completed_at = core::NowIso8601();
  save();
  RecordRunEnd(setup, kind, path, *r, rows);
}

// Pointers to each of `rows`, for CloseResults.
template <class Row>
std::vector<const Row*> RowPointers(const std::vector<Row>& rows) {
  std::vector<const Row*> out;
  out.reserve(rows.size());
  for (const auto& row : rows) out.push_back(&row);
  return out;
}

}  // namespace dfbench::scenarios
