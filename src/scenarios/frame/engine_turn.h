// What every benchmark scenario shares: engines take turns on the server host, one at a time,
// each started fresh, health-checked before each trial, cross-checked against the server's own
// operation count, and stopped; a cooldown separates them.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "drivers/driver.h"
#include "engines/deployment.h"
#include "engines/engine.h"
#include "providers/provider.h"
#include "results/schema.h"
#include "scenarios/frame/bench_options.h"
#include "state/state.h"

namespace dfbench::scenarios {

// Fills the reference's per-engine tuning fields of `row` (io_threads, num_shards,
// conn_use_incoming_cpu, pin_network: those that apply to `spec`) from its `tuning` record.
void SetReferenceTuning(const engines::EngineSpec& spec, results::EngineResult* row);

// The load `spec` is driven with: `load`, or `o`'s client profile for it applied to `load`,
// the shape it gave recorded in `row` (and announced) so nobody reads it as the same load.
core::Load EngineLoad(const BenchOptions& o, const engines::EngineSpec& spec,
                      const core::Load& load, results::EngineResult* row);

// One engine's turn. Progress goes to stderr as "[engine] ..." lines; failures are recorded in
// the engine's record (the one every kind of result row embeds), never returned, so the run can
// go on with the next engine.
class EngineTurn {
 public:
  // Starts the engine (one process, or a cluster of shards sharing them) with `tuning` pinned to
  // the fleet's server CPUs (or meets it, where the fleet has an endpoint for it) and records its
  // version,
  // origin, binary digest and tuning in `record` (the tuning asked for, resolved once it
  // started). nullopt when it did not start (the error is in record->error).
  static std::optional<EngineTurn> Start(providers::Fleet& fleet,
                                         const state::EngineInstall& install,
                                         const engines::EngineSpec& spec,
                                         const engines::Tuning& tuning,
                                         results::EngineRecord* record);
  // The turn of an engine that replicates the server's (one process): started on the fleet's
  // first replica host, pinned to its CPUs, on another port when that host is the server's own
  // (one machine), and recorded in `record` as Start does. `flush` false for a replica given its
  // master on its command line: it is read-only and gets its data from the master.
  static std::optional<EngineTurn> StartReplica(providers::Fleet& fleet,
                                                const state::EngineInstall& install,
                                                const engines::EngineSpec& spec,
                                                const engines::Tuning& tuning, bool flush,
                                                results::EngineRecord* record);

  engines::Deployment& engine() { return engine_; }
  const engines::EngineSpec& spec() const { return engine_.spec(); }
  // Where a driver sends load.
  drivers::Target target() const;

  // PING before a step (e.g. "trial 2"); false, with the error recorded, when the engine is
  // gone.
  bool Healthy(const std::string& before);
  // Records a failed step ("warmup", "trial 2", "preload"); false when it was an interrupt
  // (the whole run stops), true when the run may go on with the next engine.
  bool Failed(const std::string& what, const core::Error& e);
  // Reads the server's own count of data operations and warns on stderr when it differs from
  // `client_ops` (what the load generators were answered) by more than `tolerance` (requests
  // still in flight when a time-boxed pass ended); nullopt, said on stderr, when unreadable, and
  // with the error recorded when the engine (or one of its shards) is gone.
  std::optional<uint64_t> CrossCheck(uint64_t client_ops, uint64_t tolerance = 0);
  // The server's count of data operations so far (ServerDataOps over every process), to count
  // one trial's; nullopt when unreadable (an INFO renamed away, a server gone).
  std::optional<uint64_t> OpsSoFar();
  // The operations counted since `before` (an OpsSoFar reading); a count that went back is a
  // restarted server's, which counted only since it came back. nullopt when either is unknown.
  std::optional<uint64_t> OpsSince(std::optional<uint64_t> before);
  // The keys the engine holds (DBSIZE, summed over a cluster's shards).
  core::Result<uint64_t> KeyCount();
  // Stops the engine (a failure to stop is a line on stderr). An endpoint's run keys that
  // cannot all be removed are the engine's error too: the run fails.
  void Stop();

 private:
  // Starts `spec` on `host` as `options` say, with `tuning` as given (its CPUs pinned by the
  // caller), and records its build and resolved tuning in `record`.
  static std::optional<EngineTurn> Launch(hosts::Host& host, const state::EngineInstall& install,
                                          const engines::EngineSpec& spec,
                                          const engines::Tuning& tuning,
                                          const engines::StartOptions& options,
                                          results::EngineRecord* record);
  // An endpoint's turn (Fleet::endpoints): met, never started; its URL (without password) and
  // key namespace recorded in the tuning.
  static std::optional<EngineTurn> Attach(const providers::EngineEndpoint& endpoint,
                                          const state::EngineInstall& install,
                                          const engines::EngineSpec& spec,
                                          results::EngineRecord* record);
  // A server's own counter summed over the deployment's processes.
  core::Result<uint64_t> SumOverProcesses(
      const std::function<core::Result<uint64_t>(engines::RunningEngine&)>& count);
  // The server's data operations (ServerDataOps) over every process.
  core::Result<uint64_t> ServerOps();

  EngineTurn(engines::Deployment engine, results::EngineRecord* record)
      : engine_(std::move(engine)), record_(record) {}
  engines::Deployment engine_;
  results::EngineRecord* record_;
  uint64_t ops_before_ = 0;  // an endpoint's count when the turn met it
  // How the load generators connect to an engine that serves TLS (not enabled: plain TCP).
  protocol::TlsOptions client_tls_;
};

// Appends measured trial `trial` (its number set) of `of` to `row` and says it on stderr.
// A trial TrialFailure judges failed (its window ended early, lost work by the server's count, no
// successful request, or more errors than `max_error_pct` percent) is kept with its reason, left
// out of the summaries, and fails the engine's row: its error names the first failed trial. Returns
// false for a failed trial.
bool RecordTrial(results::EngineResult* row, results::TrialResult trial, int of,
                 double max_error_pct);

// Runs `turn(i)` for each of `count` engines in order, with `cooldown` between them, stopping
// early when a turn returns false or an interrupt arrives; `after_each` runs after every turn
// (e.g. to rewrite results.json). The cooldown is slept on `clock`. Returns true when the run
// was interrupted.
bool TakeTurns(size_t count, std::chrono::milliseconds cooldown,
               const std::function<bool(size_t)>& turn, const std::function<void()>& after_each,
               core::Clock& clock = core::RealClock());

// TakeTurns over `engines`, each with its own result row: a row named after the engine is
// appended to `rows` before its turn, and `turn(spec, row)` fills it.
template <class Row, class Turn>
bool TakeEngineTurns(const std::vector<const engines::EngineSpec*>& engines,
                     std::chrono::milliseconds cooldown, std::vector<Row>* rows, Turn turn,
                     const std::function<void()>& after_each,
                     core::Clock& clock = core::RealClock()) {
  rows->reserve(engines.size());
  return TakeTurns(
      engines.size(), cooldown,
      [&](size_t i) {
        rows->emplace_back().engine = engines[i]->name;
        return turn(*engines[i], &rows->back());
      },
      after_each, clock);
}

// Whether a result row failed: it has an `error`.
template <class Row>
bool RowHasError(const Row& row) {
  return !row.error.empty();
}

// kInterrupted, kFailed (`failed` holds for a row) or kCompleted.
template <class Row>
results::RunStatus FinalStatus(
    bool interrupted, const std::vector<const Row*>& rows,
    const std::type_identity_t<std::function<bool(const Row&)>>& failed = RowHasError<Row>) {
  if (interrupted) return results::RunStatus::kInterrupted;
  for (const auto* row : rows) {
    if (failed(*row)) return results::RunStatus::kFailed;
  }
  return results::RunStatus::kCompleted;
}

}  // namespace dfbench::scenarios
