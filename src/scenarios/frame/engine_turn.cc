#include "scenarios/frame/engine_turn.h"

#include "core/format.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/time_format.h"
#include "core/version.h"
#include "scenarios/frame/server_counters.h"

namespace dfbench::scenarios {

namespace fs = std::filesystem;

core::Status CheckInstalled(const state::SetupState& setup,
                            const std::vector<const engines::EngineSpec*>& engines) {
  for (const auto* spec : engines) {
    const auto* install = setup.FindEngine(spec->name);
    if (install && install->status == state::InstallStatus::kInstalled) continue;
    std::string have;
    for (const auto& e : setup.engines) {
      if (e.status == state::InstallStatus::kInstalled) have += (have.empty() ? "" : ", ") + e.name;
    }
    return core::Fail(core::ErrorKind::kUsage,
                      "engine " + spec->name + " is not installed in setup \"" + setup.id +
                          "\" (installed: " + (have.empty() ? "none" : have) + ")");
  }
  return core::Ok();
}

core::Status CheckRedisProtocol(const std::vector<const engines::EngineSpec*>& engines,
                                const std::string& refusal) {
  for (const auto* spec : engines) {
    if (spec->protocol != engines::Protocol::kRedis) {
      return core::Fail(core::ErrorKind::kUsage, spec->name + refusal);
    }
  }
  return core::Ok();
}

core::Status CheckEnginePort(providers::Fleet& fleet) {
  if (fleet.engine_port <= 0) return core::Ok();
  // Whatever listens there would take the engine's place (or make it fail).
  auto in_use = fleet.server->PortListening(fleet.engine_port);
  if (!in_use) return tl::unexpected(in_use.error());
  if (*in_use) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        core::Format("port {} on {} ({}) is in use by another program: stop it, or "
                     "create the setup with another engine port",
                     fleet.engine_port, fleet.server->Name(), fleet.server->EngineAddress()));
  }
  return core::Ok();
}

core::Status CheckRunnable(const state::SetupState& setup, providers::Fleet& fleet,
                           drivers::Driver& driver,
                           const std::vector<const engines::EngineSpec*>& engines) {
  if (auto st = CheckInstalled(setup, engines); !st) return st;
  if (auto st = driver.Prepare(*fleet.client); !st) return st;
  return CheckEnginePort(fleet);
}

std::string NewRunId(const fs::path& parent) {
  const std::string base = core::FormatTimestampId(std::chrono::system_clock::now());
  std::string id = base;
  for (int n = 2; fs::exists(parent / id); ++n) id = base + "-" + std::to_string(n);
  return id;
}

void SetReferenceTuning(const engines::EngineSpec& spec, results::EngineResult* row) {
  const nlohmann::json& t = row->tuning;
  if (!t.is_object()) return;
  const engines::TuningFacts& facts = spec.tuning;
  if (facts.io_threads) row->io_threads = t.value("io_threads", 0);
  if (facts.pin_network) row->pin_network = t.value("pin_network", false);
  if (facts.command_line == engines::CommandLine::kDragonfly) {
    row->num_shards = t.value("num_shards", 0);
    row->conn_use_incoming_cpu = t.value("conn_use_incoming_cpu", false);
  }
}

results::Context MakeContext(const state::SetupState& setup, const drivers::Driver& driver) {
  results::Context c;
  c.tool_version = core::VersionLine();
  c.build_type = core::GetBuildInfo().build_type;
  c.provider = state::ToString(setup.provider);
  c.load_generator = driver.Name();
  c.hosts = setup.hosts;
  return c;
}

std::optional<EngineTurn> EngineTurn::Start(providers::Fleet& fleet,
                                            const state::EngineInstall& install,
                                            const engines::EngineSpec& spec,
                                            const engines::Tuning& tuning,
                                            results::EngineResult* row) {
  engines::Tuning pinned = tuning;
  pinned.cpus = fleet.server_cpus;
  row->tuning = engines::TuningJson(spec, pinned);
  SetReferenceTuning(spec, row);
  core::Notef("[{}] starting {}", spec.name, install.binary);
  auto engine =
      engines::Start(*fleet.server, spec, install.binary, pinned, {.port = fleet.engine_port});
  if (!engine) {
    row->error = engine.error().message;
    core::Notef("[{}] {}", spec.name, row->error);
    return std::nullopt;
  }
  row->version = engine->version();
  row->origin = install.origin;
  row->sha256 = install.sha256;
  row->tuning = engine->tuning();  // with derived values resolved
  SetReferenceTuning(spec, row);
  core::Notef("[{}] {} ready on {}:{}", spec.name, row->version, engine->address(), engine->port());
  return EngineTurn(std::move(*engine), row);
}

drivers::Target EngineTurn::target() const {
  const bool memcache = engine_.spec().protocol == engines::Protocol::kMemcacheText;
  return drivers::Target{engine_.address(), engine_.port(), memcache ? "memcache_text" : "redis"};
}

bool EngineTurn::Healthy(const std::string& before) {
  auto hc = engine_.HealthCheck();
  if (hc) return true;
  row_->error = core::Format("before {}: {}", before, hc.error().message);
  core::Notef("[{}] {}", spec().name, row_->error);
  return false;
}

bool EngineTurn::Failed(const std::string& what, const core::Error& e) {
  if (e.kind == core::ErrorKind::kInterrupted || core::InterruptRequested()) {
    row_->error = what + ": interrupted";
    return false;
  }
  row_->error = what + ": " + e.message;
  if (!engine_.Alive()) {
    std::string tail = engine_.LogTail();
    row_->error = what + ": " + spec().name + " exited during the run" +
                  (tail.empty() ? "" : "; last log lines: " + tail);
  }
  core::Notef("[{}] {}", spec().name, row_->error);
  return true;
}

bool EngineTurn::RecordTrial(results::TrialResult trial, int of, double max_error_pct) {
  trial.failed = results::TrialFailure(trial, max_error_pct);
  core::Notef("[{}] trial {}/{}: {:.0f} ops/s, p50 {:.3f} ms, p99 {:.3f} ms, p99.9 {:.3f} ms{}{}",
              spec().name, trial.trial, of, trial.throughput, trial.p50, trial.p99, trial.p999,
              trial.errors ? core::Format(", {} errors", trial.errors) : std::string(),
              trial.failed.empty() ? std::string() : "; failed: " + trial.failed);
  const bool passed = trial.failed.empty();
  if (!passed && row_->error.empty()) {
    row_->error = core::Format("trial {} failed: {}", trial.trial, trial.failed);
  }
  row_->trials.push_back(std::move(trial));
  row_->Aggregate();
  return passed;
}

// The load generator's count must match the server's own; a mismatch means lost or duplicated
// requests, which would make the throughput figure wrong.
void EngineTurn::CrossCheck(uint64_t client_ops, uint64_t tolerance) {
  auto server = ServerDataOps(engine_.control().address, engine_.control().port, spec().protocol);
  if (!server) {
    core::Notef("[{}] could not read the server's operation count: {}", spec().name,
                server.error().message);
    return;
  }
  row_->server_ops = *server;
  const uint64_t diff = client_ops > *server ? client_ops - *server : *server - client_ops;
  if (diff > tolerance) {
    core::Notef("[{}] warning: the server counted {} operations, the load generator {}",
                spec().name, *server, client_ops);
  }
}

void EngineTurn::Stop() {
  if (auto st = engine_.Stop(); !st) core::Notef("[{}] stop: {}", spec().name, st.error().message);
}

bool TakeTurns(size_t count, std::chrono::milliseconds cooldown,
               const std::function<bool(size_t)>& turn, const std::function<void()>& after_each) {
  bool interrupted = false;
  for (size_t i = 0; i < count && !interrupted; ++i) {
    interrupted = !turn(i) || core::InterruptRequested();
    after_each();
    if (!interrupted && i + 1 < count && cooldown.count() > 0) {
      core::Notef("cooling down for {}s before the next engine",
                  std::chrono::duration_cast<std::chrono::seconds>(cooldown).count());
      interrupted = !core::SleepUnlessInterrupted(cooldown);
    }
  }
  return interrupted;
}

}  // namespace dfbench::scenarios
