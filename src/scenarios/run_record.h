// What every benchmark scenario does around its own steps (after CheckRunnable): the opening
// fields of its results (a new run directory, the fleet's labels, the context), and the
// closing ones (final status, end time, the history record).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/files.h"
#include "core/time_format.h"
#include "drivers/driver.h"
#include "providers/aws_provider.h"
#include "scenarios/engine_turn.h"
#include "scenarios/history.h"
#include "state/state.h"

namespace dfbench::scenarios {

// A new run under `parent` (e.g. <setup>/benchmarks): its id, <parent>/<id>/<raw_folder>
// created, and the fields every result file opens with (setup, the fleet's labels, start time,
// status "running", context). Returns the run's directory.
template <class Results>
core::Result<std::filesystem::path> OpenResults(const state::SetupState& setup,
                                                const drivers::Driver& driver,
                                                const std::filesystem::path& parent,
                                                const std::string& raw_folder, Results* r) {
  r->run_id = NewRunId(parent);
  const std::filesystem::path dir = parent / r->run_id;
  if (auto st = core::MakeDirs(dir / raw_folder); !st) return tl::unexpected(st.error());
  r->setup_id = setup.id;
  const providers::FleetLabels labels = providers::RecordedFleetLabels(setup);
  r->region = labels.region;
  if constexpr (requires { r->aws_account; }) r->aws_account = labels.aws_account;
  r->server_instance = labels.server_instance;
  r->client_instance = labels.client_instance;
  r->created_at = core::NowIso8601();
  r->status = results::RunStatus::kRunning;
  r->context = MakeContext(setup, driver);
  return dir;
}

// Closes the run: its final status from its engine rows (any kind with an `error` and an
// `engine`) and its end time, `save` (the results files), then its history record of `kind` at
// `path` (relative to the setup), naming the engines (the caller saves the state).
template <class Results, class Row>
void CloseResults(state::SetupState* setup, bool interrupted, const std::vector<const Row*>& rows,
                  const std::string& kind, const std::string& path,
                  const std::function<void()>& save, Results* r) {
  r->status = FinalStatus(interrupted, rows);
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
