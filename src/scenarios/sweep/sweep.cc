#include "scenarios/sweep/sweep.h"

#include <algorithm>

#include "core/files.h"
#include "core/format.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "drivers/load_report.h"
#include "results/number_format.h"
#include "scenarios/frame/bench_session.h"
#include "scenarios/frame/engine_turn.h"
#include "scenarios/frame/load_clients.h"
#include "scenarios/frame/preflight.h"
#include "scenarios/frame/run_record.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;

// The curve's percentiles, plus any an objective names (the maximum comes with every report).
std::vector<double> StepPercentiles(const std::vector<results::Objective>& objectives) {
  std::vector<double> p = {50, 90, 99, 99.9};
  for (const auto& o : objectives) {
    if (o.percentile < 100) p.push_back(o.percentile);
  }
  std::sort(p.begin(), p.end());
  p.erase(std::unique(p.begin(), p.end()), p.end());
  return p;
}

const RunKind<results::SweepResults> kSweep{"sweep", "sweeps", "loadgen", &results::RenderSweepJson,
                                            &results::RenderSweepCsv};

// One engine's sweep: start it, measure its closed-loop capacity, search, stop.
class EngineSweep {
 public:
  EngineSweep(const SweepOptions& o, providers::Fleet& fleet, const fs::path& dir,
              results::SweepEngine* row, std::function<void()> publish)
      : o_(o),
        fleet_(fleet),
        dir_(dir),
        row_(row),
        publish_(std::move(publish)),
        percentiles_(StepPercentiles(o.objectives)) {}

  // False when the sweep was interrupted.
  bool Run(const state::EngineInstall& install, const engines::EngineSpec& spec) {
    auto turn = EngineTurn::Start(fleet_, install, spec, o_.tuning, row_);
    if (!turn) return !core::InterruptRequested();
    turn_ = &*turn;
    const bool go_on = Sweep();
    turn->Stop();
    return go_on;
  }

 private:
  bool Sweep() {
    const auto capacity = Step(results::StepPhase::kCapacity, 0);
    if (!capacity) return !core::InterruptRequested();
    Record(results::SweepStep{.phase = results::StepPhase::kCapacity, .measured = *capacity});
    row_->capacity = capacity->achieved_rate;
    if (!row_->error.empty()) return true;  // the server went away during it (Step)
    if (row_->capacity <= 0) {
      row_->error = "the closed-loop capacity step answered no operation";
      return true;
    }
    const auto found = SearchMaxRate(
        row_->capacity, o_.objectives, o_.search,
        [this](results::StepPhase phase, double target) { return Step(phase, target); },
        [this](const results::SweepStep& s) { Record(s); });
    // A sweep cut short by a lost engine (gone before a step, or away during one) found no
    // rate: what its steps passed was never confirmed, and a rate that failed because the
    // server went away says nothing of the engine. Its steps stay, the row says why. (An
    // interrupt keeps what it had: its note gives the best passing rate so far.)
    if (!row_->error.empty() && !core::InterruptRequested()) {
      publish_();
      return !core::InterruptRequested();
    }
    row_->found_rate = found.found_rate;
    row_->first_failing_rate = found.first_failing_rate;
    row_->confirmation = found.confirmation;
    if (found.found_rate) {
      core::Notef(
          "[{}] highest rate within the objectives: {} ops/s (capacity {} ops/s{})", row_->engine,
          results::WithSeparators(*found.found_rate), results::WithSeparators(row_->capacity),
          found.confirmation.round_rates.size() >= 2
              ? core::Format(", spread {:.1f}% over {} rounds", found.confirmation.SpreadPct(),
                             found.confirmation.round_rates.size())
              : "");
    } else if (!found.stopped) {
      core::Notef("[{}] no rate kept the objectives", row_->engine);
    }
    publish_();
    return !core::InterruptRequested();
  }

  // One pass of the generator: closed loop when `target` is 0. nullopt when the engine is
  // gone, the generator failed, an earlier step lost the server or an interrupt came (the
  // reason is in the row).
  std::optional<results::StepMeasurement> Step(results::StepPhase phase, double target) {
    if (core::InterruptRequested() || !row_->error.empty()) return std::nullopt;
    const int n = static_cast<int>(row_->steps.size()) + 1;
    const std::string what = core::Format("step {}", n);
    if (!turn_->Healthy(what)) return std::nullopt;
    core::Load load = o_.load;
    load.key_minimum = load.key_maximum > 0 ? 1u : 0u;
    load.percentiles = percentiles_;
    core::Pass pass = core::Pass::Time(o_.step_time);
    pass.rate_per_sec = target;
    pass.warmup_time = StepWarmup(o_.step_time);
    const std::string phase_name(results::kStepPhaseNames.Name(phase));
    const std::string raw = core::Format("loadgen/{}-{:02}-{}.json", row_->engine, n, phase_name);
    core::Notef("[{}] step {} ({}): {}", row_->engine, n, phase_name,
                target > 0 ? results::WithSeparators(target) + " ops/s" : "closed loop");
    auto trial = o_.driver->Run(*fleet_.client, turn_->target(), load,
                                WithLiveMetrics(pass, o_.live_metrics, dir_ / raw),
                                fleet_.client_cpus, dir_ / raw);
    if (!trial) {
      turn_->Failed(what, trial.error());
      return std::nullopt;
    }
    auto text = core::ReadFile(dir_ / raw);
    auto m = text ? drivers::ParseStepMeasurement(*text, percentiles_)
                  : core::Result<results::StepMeasurement>(tl::unexpected(text.error()));
    if (!m) {
      turn_->Failed(what, m.error());
      return std::nullopt;
    }
    m->raw_file = raw;
    // The server went away during the step (a lost connection, no reply): the step is kept and
    // fails (JudgeStep), and the engine's sweep ends with it, failed: the next step would
    // measure a restarted server, or none.
    if (!m->ended_early.empty()) {
      row_->error = core::Format("{}: the measured window ended early: {}", what, m->ended_early);
      core::Notef("[{}] {}", row_->engine, row_->error);
    }
    return *std::move(m);
  }

  void Record(results::SweepStep s) {
    s.index = static_cast<int>(row_->steps.size()) + 1;
    const auto& m = s.measured;
    core::Notef(
        "[{}] step {}: achieved {} ops/s, p50 {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms, "
        "client CPU {:.0f}%{}",
        row_->engine, s.index, results::WithSeparators(m.achieved_rate),
        m.LatencyAt(50).value_or(0), m.LatencyAt(99).value_or(0), m.LatencyAt(100).value_or(0),
        m.client_cpu * 100,
        s.phase == results::StepPhase::kCapacity ? ""
        : s.verdict.passed
            ? (s.verdict.client_late ? ": pass, though the load generator sent late" : ": pass")
            : ": fail, " + s.verdict.reason);
    row_->steps.push_back(std::move(s));
    publish_();
  }

  const SweepOptions& o_;
  providers::Fleet& fleet_;
  fs::path dir_;
  results::SweepEngine* row_;
  std::function<void()> publish_;
  std::vector<double> percentiles_;
  EngineTurn* turn_ = nullptr;
};

results::SweepSettings SettingsOf(const SweepOptions& o) {
  return {.memtier = results::RecordOf(o.load, core::Pass::Requests(core::kRunRequestsPerClient)),
          .key_maximum = o.load.key_maximum,
          .step_time_sec = static_cast<double>(o.step_time.count()),
          .warmup_sec = std::chrono::duration<double>(StepWarmup(o.step_time)).count(),
          .fractions = o.search.fractions,
          .bracket = o.search.bracket,
          .rate_tolerance = o.search.rate_tolerance,
          .confirm = o.search.confirm,
          .recheck = o.search.recheck,
          .max_error_pct = o.search.max_error_pct};
}

}  // namespace

std::chrono::milliseconds StepWarmup(std::chrono::seconds step_time) {
  return std::min<std::chrono::milliseconds>(std::chrono::milliseconds(step_time) / 5,
                                             std::chrono::seconds(1));
}

core::Result<results::SweepResults> RunSweep(state::SetupState* setup, providers::Fleet& fleet,
                                             const SweepOptions& options) {
  if (!options.driver) return core::Fail(core::ErrorKind::kUsage, "no load generator");
  if (options.engines.empty()) return core::Fail(core::ErrorKind::kUsage, "no engine to run");
  if (options.objectives.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "a sweep needs at least one objective");
  }
  if (auto st = CheckRunnable(*setup, fleet, *options.driver, options.engines); !st) {
    return tl::unexpected(st.error());
  }
  results::SweepResults r;
  auto run = ScenarioRun<results::SweepResults>::Open(setup, *options.driver, kSweep, &r);
  if (!run) return tl::unexpected(run.error());
  r.settings = SettingsOf(options);
  r.objectives = options.objectives;
  nlohmann::json config = ConfigJson(r, options);
  const nlohmann::json doc = results::ToJson(r);
  config["settings"] = doc.at("settings");
  config["objectives"] = doc.at("objectives");
  std::string objectives;
  for (const auto& o : options.objectives) objectives += (objectives.empty() ? "" : ", ") + o.text;
  const std::string announcement = core::Format(
      "sweep {}: {} engine(s), objectives {}, {} s steps of {} threads × {} clients, "
      "results in {}",
      r.run_id, options.engines.size(), objectives, options.step_time.count(), options.load.threads,
      options.load.clients, run->dir().string());
  if (auto st = run->Start(config, announcement); !st) return tl::unexpected(st.error());
  run->TakeEngineTurns(options.engines, options.cooldown, &r.engines,
                       [&](const engines::EngineSpec& spec, results::SweepEngine* row) {
                         EngineSweep sweep(options, fleet, run->dir(), row, run->publish());
                         return sweep.Run(*setup->FindEngine(spec.name), spec);
                       });
  return r;
}

core::Result<RunOutcome<results::SweepResults>> SweepOnSetup(const std::string& id,
                                                             const SweepOptions& options) {
  return RunScenarioOnSetup(id, options, RunSweep);
}

}  // namespace dfbench::scenarios
