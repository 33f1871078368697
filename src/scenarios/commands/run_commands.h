// The `run-commands` scenario: one command measured on each engine in turn. Per engine: start,
// FLUSHALL, preload when the command reads existing data, a discarded time-boxed warmup, then
// N time-boxed trials; a mutating command gets a fresh flush (+ preload) before every trial, a
// read-only one keeps its keyspace across trials.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "drivers/driver.h"
#include "engines/endpoint_commands.h"
#include "engines/engine.h"
#include "engines/install.h"
#include "providers/provider.h"
#include "results/command_schema.h"
#include "scenarios/commands/command_registry.h"
#include "scenarios/frame/bench_options.h"
#include "scenarios/frame/run_outcome.h"
#include "state/state.h"

namespace dfbench::scenarios {

struct CommandOptions : BenchOptions {  // engines: Redis-protocol ones
  CommandProfile command;
  // Connections, pipeline, value size, seeds, the key pattern of the measured passes and the
  // largest key (the command's profile may cap it: CommandProfile::KeyRange); the command
  // and the range itself come from `command`.
  core::Load load = core::kCommandLoad;
  std::chrono::seconds test_time = core::kCommandTestTime;      // each measured trial
  std::chrono::seconds warmup_time = core::kCommandWarmupTime;  // 0: no warmup
  int64_t rate_per_connection = 0;                              // dfly_bench --qps
  int trials = 3;
  // A trial with more failed requests than this percentage (0-100), or with none answered
  // successfully, fails (results::TrialFailure).
  double max_error_pct = results::kDefaultMaxErrorPct;
  std::string dfly_bench_ref;  // recorded only
};

// Runs the command on a setup held by the caller. Writes, under <setup>/commands/<run_id>/:
// config.json first; raw reports as they come (memtier/<engine>-<COMMAND>-t<N>.json, the warmup's
// memtier/<engine>-<COMMAND>-warmup.json, preload passes under memtier/preload/), each with the
// tool's stdout beside it (.txt); results.json + results.csv after every trial. Records the run
// in setup->benchmarks (kind "commands") as "running" at once, saved, and sets its final status
// at the end (the caller saves the state).
//
// Failures of one engine are recorded in its row and the run goes on ("failed"); SIGINT/SIGTERM
// stops it ("interrupted"), keeping what was measured. Errors are returned only for what
// prevents the run from starting (unknown or uninstalled engine, memcached, missing load
// generator, unwritable directory).
core::Result<results::CommandRunResults> RunCommands(state::SetupState* setup,
                                                     providers::Fleet& fleet,
                                                     const CommandOptions& options);

// Every request template a run of `command` sends: the command, then its preload passes.
std::vector<engines::SentCommand> SentCommands(const CommandProfile& command);

// `dfbench run-commands` (and -dfly) on setup `id`: opens a BenchSession, checks the load
// generator before anything else, installs a requested Dragonfly build, runs the command,
// finishes the run. Returns what the run produced; an error for what stopped it before it ran.
core::Result<RunOutcome<results::CommandRunResults>> CommandsOnSetup(const std::string& id,
                                                                     const CommandOptions& options);

// Preloads keys 1..shape.key_maximum of the server at `target` for `spec` (no flush first):
// one fill pass per PreloadSpec::PassTemplates() entry, with shape's connections, pipeline and
// value size. Raw reports go to "<raw_stem>-p<N>.json". Returns what was written and the keys
// `count_keys` finds afterwards (EngineTurn::KeyCount: the run's own on an endpoint).
core::Result<results::PreloadRecord> Preload(
    drivers::Driver& driver, hosts::Host& client, const drivers::Target& target,
    const PreloadSpec& spec, const core::Load& shape, const std::vector<int>& cpus,
    const std::filesystem::path& raw_stem,
    const std::function<core::Result<uint64_t>()>& count_keys);

}  // namespace dfbench::scenarios
