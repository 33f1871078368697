#include "scenarios/frame/engine_turn.h"

#include "core/format.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "scenarios/frame/server_counters.h"

namespace dfbench::scenarios {

namespace fs = std::filesystem;

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

core::Load EngineLoad(const BenchOptions& o, const engines::EngineSpec& spec,
                      const core::Load& load, results::EngineResult* row) {
  const auto profile = o.client_profiles.find(spec.name);
  if (profile == o.client_profiles.end()) return load;
  core::Load own = profile->second.AppliedTo(load);
  row->client_profile =
      core::ClientProfile{.threads = own.threads, .clients = own.clients, .pipeline = own.pipeline};
  core::Notef("[{}] own client profile: {} threads × {} clients, pipeline {}", spec.name,
              own.threads, own.clients, own.pipeline);
  return own;
}

namespace {

// Records why an engine's turn could not begin, and says it.
std::nullopt_t NoTurn(const engines::EngineSpec& spec, const core::Error& why,
                      results::EngineRecord* record) {
  record->error = why.message;
  core::Notef("[{}] {}", spec.name, record->error);
  return std::nullopt;
}

}  // namespace

std::optional<EngineTurn> EngineTurn::Start(providers::Fleet& fleet,
                                            const state::EngineInstall& install,
                                            const engines::EngineSpec& spec,
                                            const engines::Tuning& tuning,
                                            results::EngineRecord* record) {
  if (auto endpoint = fleet.endpoints.find(spec.name); endpoint != fleet.endpoints.end()) {
    return Attach(endpoint->second, install, spec, record);
  }
  engines::Tuning pinned = tuning;
  pinned.cpus = fleet.server_cpus;
  engines::StartOptions options{.port = fleet.engine_port};
  if (tuning.tls) {
    if (!fleet.tls) {
      record->tuning = engines::TuningJson(spec, pinned);
      return NoTurn(spec, {core::ErrorKind::kUsage, "TLS asked for on a fleet not equipped for it"},
                    record);
    }
    options.tls = fleet.tls->engine;
  }
  if (tuning.acl_user) options.acl = engines::MakeRunAclUser();
  auto turn = Launch(*fleet.server, install, spec, pinned, options, record);
  if (turn && tuning.tls) turn->client_tls_ = fleet.tls->client;
  return turn;
}

std::optional<EngineTurn> EngineTurn::StartReplica(providers::Fleet& fleet,
                                                   const state::EngineInstall& install,
                                                   const engines::EngineSpec& spec,
                                                   const engines::Tuning& tuning, bool flush,
                                                   results::EngineRecord* record) {
  if (fleet.replicas.empty()) {
    return NoTurn(spec, {core::ErrorKind::kUsage, "the setup has no replica host"}, record);
  }
  hosts::Host& host = *fleet.replicas.front();
  engines::Tuning pinned = tuning;
  pinned.cpus = fleet.replica_cpus.empty() ? std::vector<int>() : fleet.replica_cpus.front();
  // One machine for both (local provider): the replica takes another port.
  const int port = &host == fleet.server.get() ? 0 : fleet.engine_port;
  return Launch(host, install, spec, pinned, {.port = port, .flush = flush}, record);
}

std::optional<EngineTurn> EngineTurn::Launch(hosts::Host& host, const state::EngineInstall& install,
                                             const engines::EngineSpec& spec,
                                             const engines::Tuning& tuning,
                                             const engines::StartOptions& options,
                                             results::EngineRecord* record) {
  record->tuning = engines::TuningJson(spec, tuning);
  core::Notef("[{}] starting {}{}", spec.name, install.binary, options.tls ? " (TLS)" : "");
  auto engine = engines::Deployment::Start(host, spec, install.binary, tuning, options);
  if (!engine) {
    return NoTurn(spec, engine.error(), record);
  }
  record->SetBuild(state::BuildOf(install, engine->version()));
  record->tuning = engine->tuning();  // with derived values resolved
  const size_t shards = engine->processes().size();
  EngineTurn turn(std::move(*engine), record);
  core::Notef("[{}] {} ready on {}:{}{}", spec.name, record->version, turn.engine_.seed().address(),
              turn.engine_.seed().port(),
              shards > 1 ? core::Format(" (a cluster of {} shards)", shards)
                         : std::string(turn.engine_.cluster() ? " (cluster mode)" : ""));
  return turn;
}

std::optional<EngineTurn> EngineTurn::Attach(const providers::EngineEndpoint& endpoint,
                                             const state::EngineInstall& install,
                                             const engines::EngineSpec& spec,
                                             results::EngineRecord* record) {
  core::Notef("[{}] meeting the endpoint {}", spec.name, endpoint.url);
  auto engine = engines::Deployment::Attach(spec, endpoint.attach);
  if (!engine) {
    return NoTurn(spec, engine.error(), record);
  }
  record->SetBuild(state::BuildOf(install, engine->version()));
  record->tuning = engine->tuning();
  record->tuning["endpoint"] = endpoint.url;
  const std::string& key_namespace = endpoint.attach.key_namespace;
  if (!key_namespace.empty()) record->tuning["key_namespace"] = key_namespace;
  const size_t nodes = engine->processes().size();
  core::Notef("[{}] {} answers at {}{}; {}", spec.name, record->version, endpoint.url,
              engine->cluster() ? core::Format(" (a cluster of {} primaries)", nodes) : "",
              key_namespace.empty()
                  ? std::string("flushing allowed")
                  : core::Format("keys under \"{}\", removed at the end", key_namespace));
  // An endpoint the run may empty starts empty, as an engine dfbench starts does.
  if (key_namespace.empty()) {
    if (auto st = engine->OnEach(&engines::RunningEngine::Flush); !st) {
      return NoTurn(spec, st.error(), record);
    }
  }
  EngineTurn turn(std::move(*engine), record);
  // A server others use counts their operations too: the cross-check reads what this run added.
  if (auto before = turn.ServerOps()) turn.ops_before_ = *before;
  return turn;
}

drivers::Target EngineTurn::target() const {
  const engines::RunningEngine& seed = engine_.seed();
  drivers::Target target{.address = seed.address(),
                         .port = seed.port(),
                         .protocol = engine_.spec().protocol,
                         .cluster = engine_.cluster(),
                         .key_namespace = seed.key_namespace()};
  // Who the engine lets in (an endpoint's user, a run's ACL user).
  const protocol::ServerEndpoint& reach = seed.control();
  target.user = reach.user;
  target.password = reach.password;
  target.db = reach.db;
  // TLS as the load generators see it: the client hosts' files, or an endpoint's.
  target.tls = client_tls_;
  if (!seed.started() && reach.tls) target.tls = reach.tls->options();
  return target;
}

bool EngineTurn::Healthy(const std::string& before) {
  auto hc = engine_.OnEach(&engines::RunningEngine::HealthCheck);
  if (hc) return true;
  record_->error = core::Format("before {}: {}", before, hc.error().message);
  core::Notef("[{}] {}", spec().name, record_->error);
  return false;
}

bool EngineTurn::Failed(const std::string& what, const core::Error& e) {
  if (e.kind == core::ErrorKind::kInterrupted || core::InterruptRequested()) {
    record_->error = what + ": interrupted";
    return false;
  }
  record_->error = what + ": " + e.message;
  if (!engine_.seed().started()) {
    if (!engine_.Alive()) record_->error = what + ": " + spec().name + " stopped answering";
  } else if (!engine_.Alive()) {
    std::string tail = engine_.LogTail();
    record_->error = what + ": " + spec().name + " exited during the run" +
                     (tail.empty() ? "" : "; last log lines: " + tail);
  }
  core::Notef("[{}] {}", spec().name, record_->error);
  return true;
}

bool RecordTrial(results::EngineResult* row, results::TrialResult trial, int of,
                 double max_error_pct) {
  trial.failed = results::TrialFailure(trial, max_error_pct);
  core::Notef("[{}] trial {}/{}: {:.0f} ops/s, p50 {:.3f} ms, p99 {:.3f} ms, p99.9 {:.3f} ms{}{}",
              row->engine, trial.trial, of, trial.throughput, trial.p50, trial.p99, trial.p999,
              trial.errors ? core::Format(", {} errors", trial.errors) : std::string(),
              trial.failed.empty() ? std::string() : "; failed: " + trial.failed);
  const bool passed = trial.failed.empty();
  if (!passed && row->error.empty()) {
    row->error = core::Format("trial {} failed: {}", trial.trial, trial.failed);
  }
  row->trials.push_back(std::move(trial));
  row->Aggregate();
  return passed;
}

// The load generator's count must match the server's own; a mismatch means lost or duplicated
// requests, which would make the throughput figure wrong.
std::optional<uint64_t> EngineTurn::CrossCheck(uint64_t client_ops, uint64_t tolerance) {
  // A cluster that lost a shard during the last trial still answers on the others.
  if (!Healthy("the cross-check")) return std::nullopt;
  auto server = ServerOps();
  if (server) *server -= std::min(*server, ops_before_);
  if (!server) {
    core::Notef("[{}] could not read the server's operation count: {}", spec().name,
                server.error().message);
    return std::nullopt;
  }
  const uint64_t diff = client_ops > *server ? client_ops - *server : *server - client_ops;
  if (diff > tolerance) {
    core::Notef("[{}] warning: the server counted {} operations, the load generator {}",
                spec().name, *server, client_ops);
  }
  return *server;
}

std::optional<uint64_t> EngineTurn::OpsSoFar() {
  auto ops = ServerOps();
  if (!ops) return std::nullopt;
  return *ops;
}

std::optional<uint64_t> EngineTurn::OpsSince(std::optional<uint64_t> before) {
  const std::optional<uint64_t> after = OpsSoFar();
  if (!before || !after) return std::nullopt;
  return *after >= *before ? *after - *before : *after;
}

core::Result<uint64_t> EngineTurn::KeyCount() {
  return SumOverProcesses([](engines::RunningEngine& process) { return process.KeyCount(); });
}

core::Result<uint64_t> EngineTurn::ServerOps() {
  return SumOverProcesses([this](engines::RunningEngine& process) {
    return ServerDataOps(process.control(), spec().protocol);
  });
}

core::Result<uint64_t> EngineTurn::SumOverProcesses(
    const std::function<core::Result<uint64_t>(engines::RunningEngine&)>& count) {
  uint64_t sum = 0;
  for (auto& process : engine_.processes()) {
    auto n = count(process);
    if (!n) return n;
    sum += *n;
  }
  return sum;
}

void EngineTurn::Stop() {
  auto st = engine_.OnEach(&engines::RunningEngine::Stop);
  if (st) return;
  // An endpoint's stop is the removal of the run's keys: keys left on a server the run shares
  // fail the run.
  if (!engine_.seed().started() && !engine_.seed().key_namespace().empty()) {
    const std::string left = "removing the run's keys: " + st.error().message +
                             "; the setup records them for the next command or destroy";
    if (record_->error.empty()) record_->error = left;
    core::Notef("[{}] {}", spec().name, left);
    return;
  }
  core::Notef("[{}] stop: {}", spec().name, st.error().message);
}

bool TakeTurns(size_t count, std::chrono::milliseconds cooldown,
               const std::function<bool(size_t)>& turn, const std::function<void()>& after_each,
               core::Clock& clock) {
  bool interrupted = false;
  for (size_t i = 0; i < count && !interrupted; ++i) {
    interrupted = !turn(i) || core::InterruptRequested();
    after_each();
    if (!interrupted && i + 1 < count && cooldown.count() > 0) {
      core::Notef("cooling down for {}s before the next engine",
                  std::chrono::duration_cast<std::chrono::seconds>(cooldown).count());
      interrupted = !core::SleepUnlessInterrupted(cooldown, clock);
    }
  }
  return interrupted;
}

}  // namespace dfbench::scenarios
