#include "scenarios/frame/bench_session.h"

#include <algorithm>

#include "core/log.h"
#include "hosts/leftovers.h"
#include "providers/client_tools.h"
#include "scenarios/frame/preflight.h"
#include "scenarios/setup/recovery.h"

namespace dfbench::scenarios {

core::Result<std::unique_ptr<BenchSession>> BenchSession::Open(const std::string& id) {
  if (auto st = state::ValidateId(id); !st) return tl::unexpected(st.error());
  // Look before locking so an unknown id does not leave an empty directory behind.
  if (auto probe = state::Load(id); !probe) return tl::unexpected(probe.error());
  auto lock = state::SetupLock::Acquire(id);
  if (!lock) return tl::unexpected(lock.error());
  std::unique_ptr<BenchSession> session(new BenchSession(std::move(*lock)));
  auto loaded = state::Load(id);
  if (!loaded) return tl::unexpected(loaded.error());
  session->setup_ = std::move(*loaded);
  if (auto st = RecoverAbandoned(&session->setup_); !st) return tl::unexpected(st.error());
  if (session->setup_.status != state::SetupStatus::kReady) {
    return core::Fail(core::ErrorKind::kNotFound, "setup \"" + id + "\" is not ready (status=\"" +
                                                      state::ToString(session->setup_.status) +
                                                      "\")");
  }
  auto guard = state::StatusGuard::Enter(&session->setup_, state::SetupStatus::kBenchmarking);
  if (!guard) return tl::unexpected(guard.error());
  session->guard_.emplace(std::move(*guard));
  session->provider_ = providers::MakeProvider(session->setup_.provider);
  auto fleet = session->provider_->Connect(session->setup_);
  if (!fleet) return tl::unexpected(fleet.error());
  session->fleet_ = std::move(*fleet);
  return session;
}

BenchSession::~BenchSession() {
  // The turns removed their keys; what a failed or interrupted turn left is tried once more,
  // and what stays is recorded (the status guard saves it).
  if (claimed_keys_) (void)provider_->RemoveRunKeys(&setup_);
  std::vector<hosts::Host*> done;
  std::vector<std::shared_ptr<hosts::Host>> all = {fleet_.server, fleet_.client};
  all.insert(all.end(), fleet_.replicas.begin(), fleet_.replicas.end());
  for (const auto& host : all) {
    if (!host || std::find(done.begin(), done.end(), host.get()) != done.end()) continue;
    done.push_back(host.get());
    if (auto st = hosts::ClearScratch(*host); !st) core::Note(st.error().message);
  }
}

namespace {

// kUsage when a password the run needs would be on `driver`'s command line or in its report:
// a run's ACL user, or an endpoint's.
core::Status CheckPasswordsStayPrivate(const drivers::Driver& driver,
                                       const std::vector<const engines::EngineSpec*>& engines,
                                       const providers::Fleet& fleet,
                                       const engines::Tuning& tuning) {
  if (tuning.acl_user && !driver.KeepsPasswordsPrivate()) {
    return core::Fail(core::ErrorKind::kUsage,
                      "an ACL user's password would be on " + driver.Name() +
                          "'s command line: runs with one use the built-in load generator");
  }
  for (const engines::EngineSpec* engine : engines) {
    const auto endpoint = fleet.endpoints.find(engine->name);
    if (endpoint == fleet.endpoints.end() || endpoint->second.attach.endpoint.password.empty() ||
        driver.KeepsPasswordsPrivate()) {
      continue;
    }
    return core::Fail(core::ErrorKind::kUsage,
                      "the endpoint " + endpoint->second.url +
                          " wants a password, which would be on " + driver.Name() +
                          "'s command line or in its report: drive it with the built-in load "
                          "generator");
  }
  return core::Ok();
}

// A note for each flag that shapes how an engine starts, given for an engine the run leaves out
// (`--valkey_shards 3 --engines redis`), as for --<engine>_version.
void NoteFlagsOfOtherEngines(const std::vector<const engines::EngineSpec*>& engines,
                             const engines::Tuning& tuning) {
  for (const engines::EngineSpec& other : engines::KnownEngines()) {
    if (std::find(engines.begin(), engines.end(), &other) != engines.end()) continue;
    if (const std::string flag = engines::StartingFlagOf(other, tuning); !flag.empty()) {
      core::Notef("{} ignored: {} is not among the engines of this run", flag, other.name);
    }
  }
}

}  // namespace

core::Status BenchSession::PrepareRun(drivers::Driver& driver,
                                      const std::vector<const engines::EngineSpec*>& engines,
                                      const std::map<std::string, engines::VersionSpec>& versions,
                                      const engines::Tuning& tuning) {
  if (tuning.tls || tuning.acl_user) {
    if (auto st = CheckRedisProtocol(engines,
                                     " has no TLS or ACL users here: those are for dragonfly, "
                                     "redis and valkey");
        !st) {
      return st;
    }
  }
  if (tuning.acl_user && !fleet_.endpoints.empty()) {
    return core::Fail(core::ErrorKind::kUsage,
                      "an endpoint's users are its own: its URL names the one to use");
  }
  for (const engines::EngineSpec* engine : engines) {
    if (!fleet_.endpoints.contains(engine->name)) continue;
    if (const std::string flag = engines::StartingFlagOf(*engine, tuning); !flag.empty()) {
      return core::Fail(core::ErrorKind::kUsage, flag + " shapes how dfbench starts " +
                                                     engine->name +
                                                     "; the endpoint runs as its owner started it");
    }
  }
  if (auto st = CheckPasswordsStayPrivate(driver, engines, fleet_, tuning); !st) return st;
  NoteFlagsOfOtherEngines(engines, tuning);
  if (tuning.tls) {
    core::Note("equipping the hosts with the setup's TLS certificates");
    if (auto st = providers::EquipTls(setup_, &fleet_); !st) return st;
  }
  if (auto st = driver.Prepare(*fleet_.client); !st) {
    // Not on the host's PATH (an explicit path the user gave is another error): when setup
    // recorded why it could not build the tool, that is the line to show.
    const auto note = providers::MissingToolNote(setup_.provider_data, driver.Kind());
    if (note && st.error().message.find(" not found on the client host (") != std::string::npos) {
      return core::Fail(st.error().kind, *note);
    }
    return st;
  }
  bool installed = false;
  for (const auto& [engine, version] : versions) {
    const std::string& name = engine;  // clang 14 cannot capture a structured binding
    const auto run =
        std::find_if(engines.begin(), engines.end(),
                     [&name](const engines::EngineSpec* e) { return e->name == name; });
    if (run == engines.end()) {
      core::Notef("--{}_version ignored: {} is not among the engines of this run", name, name);
      continue;
    }
    core::Notef("installing {} {} on {}", name, version.value, fleet_.server->Name());
    if (auto st = provider_->InstallEngine(&setup_, fleet_, **run, version); !st) return st;
    installed = true;
  }
  return installed ? state::Save(&setup_) : core::Ok();
}

core::Status BenchSession::ClaimRunKeys(const std::vector<const engines::EngineSpec*>& engines,
                                        const std::vector<engines::SentCommand>& sent) {
  std::vector<std::string> shared;  // the engines whose endpoint keeps others' data
  for (const engines::EngineSpec* engine : engines) {
    const auto endpoint = fleet_.endpoints.find(engine->name);
    if (endpoint == fleet_.endpoints.end()) continue;
    const engines::AttachOptions& attach = endpoint->second.attach;
    if (attach.key_namespace.empty()) continue;
    if (auto st =
            engines::CheckSentCommands(engine->name, attach.endpoint, attach.key_namespace, sent);
        !st) {
      return st;
    }
    shared.push_back(engine->name);
  }
  if (shared.empty()) return core::Ok();
  auto& records = *setup_.provider_data.endpoints;
  for (const auto& name : shared) {
    records[name].run_keys.push_back({.prefix = fleet_.endpoints[name].attach.key_namespace});
  }
  claimed_keys_ = true;
  return state::Save(&setup_);
}

core::Result<std::filesystem::path> BenchSession::FinishRun() {
  if (auto st = state::Save(&setup_); !st) return tl::unexpected(st.error());
  if (setup_.benchmarks.empty()) {
    return core::Fail(core::ErrorKind::kFailure, "no run was recorded in setup " + setup_.id);
  }
  const state::BenchmarkRecord& run = setup_.benchmarks.back();
  if (!run.error.empty()) return core::Fail(core::ErrorKind::kEnvironment, run.error);
  return state::SetupDir(setup_.id) / run.path;
}

}  // namespace dfbench::scenarios
