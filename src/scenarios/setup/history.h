// A setup's benchmark history (state.json "benchmarks"): a run is recorded when it starts, so
// that a command killed mid-run leaves a record the next command can mark interrupted.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "state/state.h"

namespace dfbench::scenarios {

// Appends `record` with status "running" and saves the state (the caller holds the lock).
core::Status RecordRunStart(state::SetupState* setup, state::BenchmarkRecord record);

// Sets the final status, end time and engines of the run recorded by RecordRunStart (the
// caller saves the state).
void RecordRunEnd(state::SetupState* setup, const state::BenchmarkRecord& finished);

// RecordRunEnd for a finished run: its id, times and final status from `r`, of `kind` at `path`
// (relative to the setup), naming the engine of each of `rows` (once for consecutive rows of
// the same engine, e.g. a replication run's cases).
template <class Results, class Row>
void RecordRunEnd(state::SetupState* setup, const std::string& kind, const std::string& path,
                  const Results& r, const std::vector<const Row*>& rows) {
  state::BenchmarkRecord record{.kind = kind,
                                .run_id = r.run_id,
                                .path = path,
                                .created_at = r.created_at,
                                .completed_at = r.completed_at,
                                .status = *r.status};
  for (const auto* row : rows) {
    if (record.engines.empty() || record.engines.back() != row->engine) {
      record.engines.push_back(row->engine);
    }
  }
  RecordRunEnd(setup, record);
}

// Marks every record still "running" as "interrupted", and its results.json too (status and
// completed_at; every trial it holds is kept). Returns the run ids it marked. A results.json
// that cannot be rewritten is a line on stderr, not an error.
std::vector<std::string> InterruptRunningRecords(state::SetupState* setup);

}  // namespace dfbench::scenarios
