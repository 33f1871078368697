#include "scenarios/commands/run_commands.h"

#include <optional>

#include "core/format.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "scenarios/frame/bench_session.h"
#include "scenarios/frame/engine_turn.h"
#include "scenarios/frame/load_clients.h"
#include "scenarios/frame/preflight.h"
#include "scenarios/frame/run_record.h"
#include "scenarios/frame/server_counters.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;

const RunKind<results::CommandRunResults> kCommands{"commands", "commands", "memtier",
                                                    &results::RenderCommandRunJson,
                                                    &results::RenderCommandRunCsv};

nlohmann::json CommandsConfigJson(const results::CommandRunResults& r, const CommandOptions& o) {
  const auto& c = o.command;
  nlohmann::json preload = nullptr;
  if (c.reads()) {
    preload = {{"passes", c.preload.PassTemplates()}, {"items", c.preload.items}};
  }
  nlohmann::json config = ConfigJson(r, o);
  config["command"] = {{"name", c.name},
                       {"template", c.tmpl},
                       {"mutates", c.mutates},
                       {"drains", c.drains},
                       {"key_maximum", c.KeyRange(o.load.key_maximum)},
                       {"preload", preload}};
  config["memtier"] = results::ToJson(r.memtier);
  config["trials"] = o.trials;
  config["dfly_bench_ref"] = o.dfly_bench_ref;
  return config;
}

// "trial 2" -> "t2", "warmup" -> "warmup": file-name form of a phase.
std::string PhaseFileName(const std::string& before) {
  if (before.rfind("trial ", 0) == 0) return std::string("t").append(before, 6);
  return before;
}

// One engine: start, flush + preload, warmup, trials (re-preparing for mutating commands),
// cross-check, stop. Fills `row`; Run returns false when the run was interrupted.
class CommandEngineRun {
 public:
  CommandEngineRun(const CommandOptions& o, providers::Fleet& fleet, const fs::path& dir,
                   results::CommandEngineResult* row, std::function<void()> publish)
      : o_(o), fleet_(fleet), dir_(dir), row_(row), publish_(std::move(publish)) {}

  bool Run(const state::EngineInstall& install, const engines::EngineSpec& spec) {
    results::EngineResult* result = &row_->result;
    result->approximate = o_.command.drains;
    measured_ = EngineLoad(o_, spec, o_.load, result);
    auto turn = EngineTurn::Start(fleet_, install, spec, o_.tuning, result);
    SetReferenceTuning(spec, result);
    if (!turn) return !core::InterruptRequested();
    turn_ = &*turn;
    const CommandProfile& c = o_.command;
    stem_ = spec.name + "-" + c.name;
    measured_.command = c.tmpl;
    measured_.key_minimum = 1;
    measured_.key_maximum = c.KeyRange(o_.load.key_maximum);
    measured_pass_ = core::Pass::Time(o_.test_time);
    measured_pass_.rate_per_connection = o_.rate_per_connection;

    const bool warmup = o_.warmup_time.count() > 0;
    if (auto ok = Prepare(warmup ? "warmup" : "trial 1"); ok != Step::kDone) {
      return ok == Step::kFailed;
    }
    if (warmup) {
      core::Notef("[{}] warmup: {} s of {} (discarded)", spec.name, o_.warmup_time.count(), c.name);
      core::Pass warm = measured_pass_;
      warm.test_time = o_.warmup_time;
      auto w = RunPass(o_, fleet_, turn_->target(), measured_, warm,
                       dir_ / "memtier" / (stem_ + "-warmup.json"));
      if (!w) return turn_->Failed("warmup", w.error());
      result->warmup_ops = w->ops + w->errors;
      fresh_ = !c.mutates;
    }
    for (int t = 1; t <= o_.trials; ++t) {
      const std::string before = core::Format("trial {}", t);
      if (!turn_->Healthy(before)) return true;
      if (c.mutates && !fresh_) {
        if (auto ok = Prepare(before); ok != Step::kDone) return ok == Step::kFailed;
      }
      if (auto ok = Trial(t); ok != Step::kDone) return ok == Step::kFailed;
      fresh_ = !c.mutates;
      publish_();
    }
    CrossCheck();
    turn_->Stop();
    return true;
  }

 private:
  // kFailed: recorded, go on with the next engine; kInterrupted: stop the run.
  enum class Step { kDone, kFailed, kInterrupted };

  Step Failed(const std::string& what, const core::Error& e) {
    return turn_->Failed(what, e) ? Step::kFailed : Step::kInterrupted;
  }

  // FLUSHALL, then the command's preload when it reads existing data.
  Step Prepare(const std::string& before) {
    const std::string& name = turn_->spec().name;
    if (auto st = turn_->engine().OnEach(&engines::RunningEngine::Flush); !st)
      return Failed("flush before " + before, st.error());
    fresh_ = true;
    if (!o_.command.reads()) return Step::kDone;
    auto record = Preload(*o_.driver, *fleet_.client, turn_->target(), o_.command.preload,
                          measured_, fleet_.client_cpus,
                          dir_ / "memtier" / "preload" / (stem_ + "-" + PhaseFileName(before)),
                          [this] { return turn_->KeyCount(); });
    if (!record) return Failed("preload before " + before, record.error());
    record->before = before;
    const uint64_t expected = measured_.KeyCount();
    core::Notef("[{}] preloaded {} key(s) × {} item(s) in {} pass(es), {:.1f} s (before {})", name,
                record->keys, o_.command.preload.items, record->passes, record->duration_sec,
                before);
    if (record->keys != expected) {
      core::Notef("[{}] warning: the preload left {} keys, expected {}", name, record->keys,
                  expected);
    }
    preload_ops_ += record->ops;
    row_->preloads.push_back(*record);
    return Step::kDone;
  }

  Step Trial(int t) {
    const std::string& name = turn_->spec().name;
    const std::string raw = core::Format("{}-t{}.json", stem_, t);
    results::TrialKeyspace keys{.trial = t, .keys_before = KeyCount()};
    core::Notef("[{}] trial {}/{}: {} s of {}", name, t, o_.trials, o_.test_time.count(),
                o_.command.name);
    // The server's count of the trial's operations, judged as `run` judges it (RecordTrial):
    // fewer than were answered is lost work, a restarted server's count among it.
    const std::optional<uint64_t> before = Counted() ? turn_->OpsSoFar() : std::nullopt;
    auto trial =
        RunPass(o_, fleet_, turn_->target(), measured_, measured_pass_, dir_ / "memtier" / raw);
    if (!trial) return Failed(core::Format("trial {}", t), trial.error());
    if (before) trial->server_ops = turn_->OpsSince(before);
    keys.keys_after = KeyCount();
    trial->trial = t;
    trial->raw_file = "memtier/" + raw;
    RecordTrial(&row_->result, std::move(*trial), o_.trials, o_.max_error_pct);
    row_->keyspace.push_back(keys);
    return Step::kDone;
  }

  uint64_t KeyCount() {
    auto keys = turn_->KeyCount();
    if (!keys) {
      core::Notef("[{}] DBSIZE: {}", turn_->spec().name, keys.error().message);
      return 0;
    }
    return *keys;
  }

  // Whether the server counts the command among its data operations (ServerDataOps leaves
  // control commands out).
  bool Counted() const {
    return !IsControlCommand(o_.command.tmpl.substr(0, o_.command.tmpl.find(' ')));
  }

  // Preloads are counted exactly; every other pass is time-boxed (core::InFlightAtStop).
  void CrossCheck() {
    if (!Counted()) return;
    const results::EngineResult& result = row_->result;
    uint64_t client_ops = preload_ops_ + result.warmup_ops;
    for (const auto& t : result.trials) client_ops += t.ops + t.errors;
    const uint64_t passes = result.trials.size() + (o_.warmup_time.count() > 0 ? 1 : 0);
    if (auto server_ops = turn_->CrossCheck(client_ops, core::InFlightAtStop(measured_) * passes)) {
      row_->result.server_ops = *server_ops;
    }
  }

  const CommandOptions& o_;
  providers::Fleet& fleet_;
  fs::path dir_;
  results::CommandEngineResult* row_;
  std::function<void()> publish_;
  EngineTurn* turn_ = nullptr;
  std::string stem_;     // "<engine>-<COMMAND>"
  core::Load measured_;  // the command on its key range
  core::Pass measured_pass_;
  bool fresh_ = false;  // the keyspace is as the last Prepare left it
  uint64_t preload_ops_ = 0;
};

}  // namespace

core::Result<results::PreloadRecord> Preload(
    drivers::Driver& driver, hosts::Host& client, const drivers::Target& target,
    const PreloadSpec& spec, const core::Load& shape, const std::vector<int>& cpus,
    const fs::path& raw_stem, const std::function<core::Result<uint64_t>()>& count_keys) {
  results::PreloadRecord record;
  const auto start = std::chrono::steady_clock::now();
  const auto passes = spec.PassTemplates();
  for (size_t i = 0; i < passes.size(); ++i) {
    core::Load fill = shape;
    fill.command = passes[i];
    fs::path raw = raw_stem;
    raw += core::Format("-p{}.json", i + 1);
    auto pass = driver.Run(client, target, fill, core::Pass::Fill(), cpus, raw);
    if (!pass) return tl::unexpected(pass.error());
    record.ops += pass->ops;
    ++record.passes;
    if (pass->errors > 0) {
      return core::Fail(core::ErrorKind::kFailure,
                        core::Format("{} error replies to \"{}\" (see {})", pass->errors, passes[i],
                                     raw.string()));
    }
  }
  record.duration_sec =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto keys = count_keys();
  if (!keys) return tl::unexpected(keys.error());
  record.keys = *keys;
  return record;
}

core::Result<results::CommandRunResults> RunCommands(state::SetupState* setup,
                                                     providers::Fleet& fleet,
                                                     const CommandOptions& options) {
  if (!options.driver) return core::Fail(core::ErrorKind::kUsage, "no load generator");
  if (options.engines.empty()) return core::Fail(core::ErrorKind::kUsage, "no engine to run");
  if (auto st = CheckRedisProtocol(options.engines,
                                   " does not speak the Redis protocol; per-command runs need "
                                   "dragonfly, redis or valkey");
      !st) {
    return tl::unexpected(st.error());
  }
  if (auto st = CheckRunnable(*setup, fleet, *options.driver, options.engines); !st) {
    return tl::unexpected(st.error());
  }

  const CommandProfile& c = options.command;
  results::CommandRunResults r;
  auto run = ScenarioRun<results::CommandRunResults>::Open(setup, *options.driver, kCommands, &r);
  if (!run) return tl::unexpected(run.error());
  r.memtier = results::RecordOf(options.load, options.test_time, options.warmup_time,
                                options.rate_per_connection);
  r.trials = options.trials;
  r.tool = options.driver->Name();
  r.dfly_bench_ref = options.dfly_bench_ref;
  results::CommandResult command{.command = c.name, .tmpl = c.tmpl, .approximate = c.drains};
  if (c.reads()) {
    const auto passes = c.preload.PassTemplates();
    command.preload_template = passes.front();
    command.preload_items = c.preload.items;
  }
  command.key_maximum = c.KeyRange(options.load.key_maximum);
  command.mutates = c.mutates;
  command.engines.reserve(options.engines.size());
  r.commands.push_back(std::move(command));
  const std::string announcement = core::Format(
      "commands {}: {} on {} engine(s), {} trial(s) of {} s each, results in {}", r.run_id, c.name,
      options.engines.size(), options.trials, options.test_time.count(), run->dir().string());
  if (auto st = run->Start(CommandsConfigJson(r, options), announcement); !st) {
    return tl::unexpected(st.error());
  }
  auto& rows = r.commands.front().engines;
  const bool interrupted = TakeTurns(
      options.engines.size(), options.cooldown,
      [&](size_t i) {
        const auto* spec = options.engines[i];
        rows.emplace_back().result.engine = spec->name;
        CommandEngineRun engine_run(options, fleet, run->dir(), &rows.back(), run->publish());
        return engine_run.Run(*setup->FindEngine(spec->name), *spec);
      },
      run->publish());
  std::vector<const results::EngineResult*> results_rows;
  results_rows.reserve(rows.size());
  for (const auto& row : rows) results_rows.push_back(&row.result);
  run->Close(interrupted, results_rows);
  return r;
}

std::vector<engines::SentCommand> SentCommands(const CommandProfile& command) {
  // A built-in command as the registry has it is dfbench's own: its only key is __key__.
  const CommandProfile* builtin = FindBuiltinCommand(command.name);
  const bool own = builtin != nullptr && builtin->tmpl == command.tmpl &&
                   builtin->preload.PassTemplates() == command.preload.PassTemplates();
  std::vector<engines::SentCommand> sent = {{.tmpl = command.tmpl, .own = own}};
  if (command.reads()) {
    for (auto& pass : command.preload.PassTemplates()) {
      sent.push_back({.tmpl = std::move(pass), .own = own});
    }
  }
  return sent;
}

core::Result<RunOutcome<results::CommandRunResults>> CommandsOnSetup(
    const std::string& id, const CommandOptions& options) {
  ScenarioRequest request = RequestFor(id, options);
  request.sent = SentCommands(options.command);
  return RunScenario(request, [&](BenchSession& session) {
    return RunCommands(&session.setup(), session.fleet(), options);
  });
}

}  // namespace dfbench::scenarios
