// The `run-memory` scenario: per engine, a fresh start, a populate, idle memory and bytes per key,
// then update traffic with a snapshot (BGSAVE) in the middle, the engine's whole process tree
// sampled on the server host every 100 ms.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "drivers/driver.h"
#include "engines/engine.h"
#include "providers/provider.h"
#include "results/memory_schema.h"
#include "scenarios/frame/bench_options.h"
#include "scenarios/frame/run_outcome.h"
#include "state/state.h"

namespace dfbench::scenarios {

enum class SnapshotMode { kBgsave, kNone };

// The load generator fills engines without DEBUG POPULATE; the cooldown is shorter than a
// run's, the engines having no trials of load between them.
struct MemoryOptions : BenchOptions {
  MemoryOptions() { cooldown = std::chrono::seconds(10); }
  uint64_t keys = 1000000;
  // The update traffic (and a fill where DEBUG POPULATE is missing): connections, pipeline,
  // SET:GET ratio and the value size of every key.
  core::Load load = core::kMemoryLoad;
  SnapshotMode snapshot = SnapshotMode::kBgsave;
  // The update traffic's pace over the populated keys, built-in load generator.
  double update_rate = 0;  // requests per second in all; 0: closed loop
  std::chrono::seconds test_time{30};
  std::chrono::seconds snapshot_delay{5};  // traffic before the BGSAVE; < test_time
  // How long a BGSAVE may run before the trial fails as stuck; 0: derived from keys x data_size
  // (SnapshotLimit).
  std::chrono::seconds snapshot_timeout{0};
  int trials = 1;  // each a fresh start of the engine
  // On the server host: where snapshots go ("": a directory per engine and run under the
  // host's work directory, removed afterwards). Given, it must exist; the snapshot files the
  // run writes there are removed afterwards.
  std::string snapshot_dir;
  // A trial whose update traffic had more failed requests than this share (or none answered)
  // fails (results::TrialFailure); the fill allows none.
  double max_error_pct = results::kDefaultMaxErrorPct;
};

// kUsage on options that cannot run (no keys, a snapshot delay not inside the test time),
// naming each option by its member ("snapshot_delay").
core::Status CheckMemoryOptions(const MemoryOptions& options);

// Runs the scenario on a setup held by the caller; writes <setup>/memory/<run_id>/:
// config.json, results.json and results.csv after each engine, raw load reports under raw/.
// Failures of an engine (and failed snapshots) are in its row; SIGINT stops with status
// "interrupted", keeping the engines that finished.
core::Result<results::MemoryRunResults> RunMemory(state::SetupState* setup, providers::Fleet& fleet,
                                                  const MemoryOptions& options);

// `dfbench run-memory` on setup `id`; what the run produced.
core::Result<RunOutcome<results::MemoryRunResults>> MemoryOnSetup(const std::string& id,
                                                                  const MemoryOptions& options);

}  // namespace dfbench::scenarios
