// The `sweep` scenario: per engine, its closed-loop capacity, then open-loop steps of the
// built-in generator (latency from the due time) searching for the highest rate that keeps
// every latency objective (sweep_search), the curve of latency against throughput recorded as
// it goes.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "drivers/driver.h"
#include "engines/engine.h"
#include "providers/provider.h"
#include "results/sweep_schema.h"
#include "scenarios/frame/bench_options.h"
#include "scenarios/frame/run_outcome.h"
#include "scenarios/sweep/sweep_search.h"
#include "state/state.h"

namespace dfbench::scenarios {

// The load generator must be the built-in one: the others refuse the open loop.
struct SweepOptions : BenchOptions {
  // The SET:GET load of every step; key_maximum 0: the generator's default range, else keys
  // 1..key_maximum.
  core::Load load = core::kRunLoad;
  std::chrono::seconds step_time{10};
  std::vector<results::Objective> objectives;
  SearchSettings search;
};

// The discarded warm-up at the start of every step: a fifth of the step, at most a second.
std::chrono::milliseconds StepWarmup(std::chrono::seconds step_time);

// Runs the sweep on a setup held by the caller. Writes, under <setup>/sweeps/<run_id>/:
// config.json first, each step's raw generator report as soon as the step ends
// (loadgen/<engine>-<NN>-<phase>.json), results.json + results.csv after every step. Records
// the run in the setup's history as kind "sweep" (the caller saves the state).
//
// An engine that fails to start or dies gets its error in its row and the sweep goes on with
// the next engine (status "failed"). SIGINT/SIGTERM stops it with status "interrupted",
// keeping every finished step. Errors only for what prevents it from starting.
core::Result<results::SweepResults> RunSweep(state::SetupState* setup, providers::Fleet& fleet,
                                             const SweepOptions& options);

// `dfbench sweep` on setup `id`: the shared scenario flow around RunSweep. Returns what the run
// produced; an error for what stopped it before it ran.
core::Result<RunOutcome<results::SweepResults>> SweepOnSetup(const std::string& id,
                                                             const SweepOptions& options);

}  // namespace dfbench::scenarios
