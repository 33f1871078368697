#include "scenarios/setget/run_benchmark.h"

#include "core/format.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "results/writers.h"
#include "scenarios/frame/bench_session.h"
#include "scenarios/frame/engine_turn.h"
#include "scenarios/frame/load_clients.h"
#include "scenarios/frame/preflight.h"
#include "scenarios/frame/run_record.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;

const RunKind<results::RunResults> kRun{"run", "benchmarks", "memtier", &results::RenderRunJson,
                                        &results::RenderRunCsv};

// One engine: start, warm up, trials, cross-check, stop. Fills `row`; returns false when the
// run was interrupted.
bool RunEngine(const SetGetOptions& o, providers::Fleet& fleet, const fs::path& dir,
               const state::EngineInstall& install, const engines::EngineSpec& spec,
               results::EngineResult* row, const std::function<void()>& publish) {
  const core::Load load = EngineLoad(o, spec, o.load, row);
  auto turn = EngineTurn::Start(fleet, install, spec, o.tuning, row);
  SetReferenceTuning(spec, row);
  if (!turn) return !core::InterruptRequested();
  const drivers::Target target = turn->target();
  if (o.warmup_requests > 0) {
    const core::Pass warm = core::Pass::Requests(o.warmup_requests);
    core::Notef("[{}] warmup: {} requests per connection, {} in all (discarded)", spec.name,
                o.warmup_requests, core::TotalRequests(load, warm));
    auto w = RunPass(o, fleet, target, load, warm, dir / "memtier" / (spec.name + "-warmup.json"));
    if (!w) return turn->Failed("warmup", w.error());
    row->warmup_ops = w->ops + w->errors;
  }
  for (int t = 1; t <= o.trials; ++t) {
    if (!turn->Healthy(core::Format("trial {}", t))) return true;
    const std::string raw = core::Format("{}-t{}.json", spec.name, t);
    core::Notef("[{}] trial {}/{}", spec.name, t, o.trials);
    const std::optional<uint64_t> before = turn->OpsSoFar();
    auto trial = RunPass(o, fleet, target, load, o.TrialPass(), dir / "memtier" / raw);
    if (!trial) return turn->Failed(core::Format("trial {}", t), trial.error());
    trial->server_ops = turn->OpsSince(before);  // judged by RecordTrial (TrialFailure)
    trial->trial = t;
    trial->raw_file = "memtier/" + raw;
    RecordTrial(row, std::move(*trial), o.trials, o.max_error_pct);
    publish();
  }
  uint64_t client_ops = row->warmup_ops;
  for (const auto& t : row->trials) client_ops += t.ops + t.errors;
  const uint64_t in_flight =
      o.test_time.count() > 0 ? core::InFlightAtStop(load) * row->trials.size() : 0;
  if (auto server_ops = turn->CrossCheck(client_ops, in_flight)) row->server_ops = *server_ops;
  turn->Stop();
  return true;
}

}  // namespace

core::Result<results::RunResults> RunSetGet(state::SetupState* setup, providers::Fleet& fleet,
                                            const SetGetOptions& options) {
  if (!options.driver) return core::Fail(core::ErrorKind::kUsage, "no load generator");
  if (options.engines.empty()) return core::Fail(core::ErrorKind::kUsage, "no engine to run");
  if (auto st = CheckRunnable(*setup, fleet, *options.driver, options.engines); !st) {
    return tl::unexpected(st.error());
  }
  results::RunResults r;
  auto run = ScenarioRun<results::RunResults>::Open(setup, *options.driver, kRun, &r);
  if (!run) return tl::unexpected(run.error());
  r.memtier = results::RecordOf(options.load, options.TrialPass());
  r.warmup_requests = options.warmup_requests;
  r.trials = options.trials;
  nlohmann::json config = ConfigJson(r, options);
  config["memtier"] = results::ToJson(r).at("memtier");
  config["warmup_requests"] = options.warmup_requests;
  config["trials"] = options.trials;
  const core::Load& load = options.load;
  const std::string length = options.test_time.count() > 0
                                 ? core::Format("{} s", options.test_time.count())
                                 : core::Format("{} requests = {} requests", options.requests,
                                                core::TotalRequests(load, options.TrialPass()));
  const std::string announcement = core::Format(
      "run {}: {} engine(s), {} trial(s) each of {} threads × {} clients × {}, "
      "results in {}",
      r.run_id, options.engines.size(), options.trials, load.threads, load.clients, length,
      run->dir().string());
  if (auto st = run->Start(config, announcement); !st) return tl::unexpected(st.error());
  run->TakeEngineTurns(options.engines, options.cooldown, &r.engines,
                       [&](const engines::EngineSpec& spec, results::EngineResult* row) {
                         return RunEngine(options, fleet, run->dir(), *setup->FindEngine(spec.name),
                                          spec, row, run->publish());
                       });
  return r;
}

core::Result<RunOutcome<results::RunResults>> SetGetOnSetup(const std::string& id,
                                                            const SetGetOptions& options) {
  return RunScenarioOnSetup(id, options, RunSetGet);
}

}  // namespace dfbench::scenarios
