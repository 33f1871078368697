// The `run-replication` scenario: per engine and case, a master is preloaded, a replica does
// its full sync under load, and the load goes on for the test time while the replica is
// watched. What clients see is recorded second by second: the case's series (and its medians)
// is the test time after the stable sync, as the reference's; the seconds of the sync window
// are kept apart (sync_series).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "core/load_generator.h"
#include "drivers/driver.h"
#include "engines/engine.h"
#include "providers/provider.h"
#include "results/replication_schema.h"
#include "results/schema.h"
#include "scenarios/frame/run_outcome.h"
#include "state/state.h"

namespace dfbench::scenarios {

// One row of the sweep: "qps=<n>" (n requests per second on each of two connections, as
// dfly_bench --qps) or "maxload" (closed loop).
struct ReplicationCaseSpec {
  std::string name;
  int64_t qps_per_connection = 0;  // 0: maxload
  // The load's connections (core::kReplicationLoad), and the case's rate over all of them.
  static int64_t Connections();
  int64_t TotalRate() const { return qps_per_connection * Connections(); }
};

// "qps=100000,qps=50k,maxload" (k/M suffixes allowed); kUsage naming the bad token, its
// message starting with it quoted (`"qps=x" is neither ...`).
core::Result<std::vector<ReplicationCaseSpec>> ParseReplicationCases(const std::string& text);

struct ReplicationOptions {
  std::vector<const engines::EngineSpec*> engines;  // Redis-protocol, installed in the setup
  std::vector<ReplicationCaseSpec> cases;
  std::chrono::seconds test_time{60};
  uint64_t preload_keys = 1'000'000;      // the key range 0..preload_keys-1, not a count written
  std::chrono::seconds preload_time{30};  // the reference's time-boxed preload
  int value_size = 256;
  core::Ratio ratio{.set = 1, .get = 1};  // of the load (the preload only writes)
  std::vector<std::string> master_flags;
  std::vector<std::string> replica_flags;
  std::string dfly_ref = "main";     // recorded only
  std::filesystem::path output_dir;  // empty: <setup>/replications/<run id>
  // The built-in generator, or dfly_bench with the reference's command lines
  // (replication_dfly_bench.h): its load starts once the sync is over, as in the reference, for
  // the test time.
  core::LoadGenerator load_generator = core::LoadGenerator::kBuiltin;
  std::string dfly_bench_binary;           // dfly_bench on the client host; resolved by the driver
  std::chrono::seconds sync_timeout{600};  // replica start to the end of its full sync
  // A case whose load had more failed requests than this share (or none answered) fails
  // (results::TrialFailure); the preload allows none.
  double max_error_pct = results::kDefaultMaxErrorPct;
};

// Runs every case of every engine on a setup with at least one replica (the first one is
// used). Writes results.json and benchmark_results.csv after every case, raw reports under
// raw/. Records the run in setup->benchmarks (kind "replication"), "running" at once and its
// final status at the end (the caller saves the state). A failed case is recorded
// (termination_reason "error" and the reason) and the next one runs; SIGINT/SIGTERM ends the
// run after recording the current case as "ctx_cancelled", keeping the finished ones.
// Errors are returned only for what prevents the run from starting.
// `driver`: the load generator, prepared on the client host (RunScenario); with dfly_bench,
// `options.dfly_bench_binary` is the path it found.
core::Result<results::ReplicationRunResults> RunReplication(state::SetupState* setup,
                                                            providers::Fleet& fleet,
                                                            const ReplicationOptions& options,
                                                            const drivers::Driver& driver);

// The cases as a table: engine, case, total rate, median rps, median p99 µs, sync ms, end.
std::string RenderReplicationTable(const results::ReplicationRunResults& r);

// RunReplication in the flow every scenario shares (RunScenario: the setup locked and
// "benchmarking", the run saved in its history). Returns what the run produced.
core::Result<RunOutcome<results::ReplicationRunResults>> ReplicationOnSetup(
    const std::string& id, const ReplicationOptions& options);

}  // namespace dfbench::scenarios
