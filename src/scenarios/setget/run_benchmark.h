// The `run` scenario: each engine in turn on the server host, a discarded warmup, N measured
// trials from the client host, stop, cool down; results aggregated and written as they come.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "drivers/driver.h"
#include "engines/engine.h"
#include "engines/install.h"
#include "providers/provider.h"
#include "results/schema.h"
#include "scenarios/frame/bench_options.h"
#include "scenarios/frame/run_outcome.h"
#include "state/state.h"

namespace dfbench::scenarios {

struct SetGetOptions : BenchOptions {
  // A trial's length: `requests` per connection, or `test_time` when set.
  core::Pass TrialPass() const {
    return test_time.count() > 0 ? core::Pass::Time(test_time) : core::Pass::Requests(requests);
  }

  core::Load load = core::kRunLoad;
  uint64_t requests = core::kRunRequestsPerClient;  // per connection, as memtier's --requests
  // > 0: each trial lasts this long instead (memtier's --test-time), `requests` unused.
  std::chrono::seconds test_time{0};
  uint64_t warmup_requests = 100000;  // per connection too
  int trials = 3;
  // A trial with more failed requests than this percentage (0-100), or with none answered
  // successfully, fails (results::TrialFailure).
  double max_error_pct = results::kDefaultMaxErrorPct;
};

// Runs the benchmark on a setup held by the caller. Writes, under
// <setup>/benchmarks/<run_id>/: config.json first, each trial's raw report as soon as the
// trial ends (memtier/<engine>-t<N>.json), and results.json + results.csv after every trial.
// Records the run in setup->benchmarks as "running" (saved at once, so a killed run can be
// recovered) and sets its final status at the end (the caller saves the state).
//
// An engine that fails to start or dies gets its error in its row and the run goes on with
// the next engine; the returned status is then "failed". SIGINT/SIGTERM stops the run with
// status "interrupted", keeping what was measured. Errors are returned only for what
// prevents the run from starting (unknown engine, unwritable directory).
core::Result<results::RunResults> RunSetGet(state::SetupState* setup, providers::Fleet& fleet,
                                            const SetGetOptions& options);

// `dfbench run` on setup `id`: opens a BenchSession, installs a requested Dragonfly build,
// runs the benchmark and finishes the run. Returns what the run produced; an error for what
// stopped it before it ran.
core::Result<RunOutcome<results::RunResults>> SetGetOnSetup(const std::string& id,
                                                            const SetGetOptions& options);

}  // namespace dfbench::scenarios
