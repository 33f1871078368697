#include "scenarios/setup/lifecycle.h"

#include <cstdio>

#include "core/check.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/time_format.h"
#include "scenarios/setup/recovery.h"

namespace dfbench::scenarios {
namespace {

// Deletes the directory of a corrupt setup when forced to; else says why not, in one line.
core::Status RemoveCorrupt(const std::string& id, const core::Error& corrupt,
                           const IfCorrupt& if_corrupt) {
  const std::filesystem::path dir = state::SetupDir(id);
  if (!if_corrupt.force) {
    const std::string force =
        if_corrupt.how_to_force.empty() ? "a forced destroy" : if_corrupt.how_to_force;
    return core::Fail(corrupt.kind, corrupt.message +
                                        "; the hosts or stack it records cannot be read, so "
                                        "nothing is torn down: check them, then " +
                                        force + " deletes " + dir.string());
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (ec) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot delete " + dir.string() + ": " + ec.message());
  }
  core::Notef("setup \"{}\" was corrupt: deleted {}", id, dir.string());
  return core::Ok();
}

// Every engine the flags name has its fields (state/setup_settings.h).
void SetEngineFlag(state::SetupSettings* s, const std::string& engine, const std::string& suffix,
                   const std::string& value) {
  std::string* field = state::EngineFlag(s, engine, suffix);
  DFB_CHECK(field != nullptr);
  *field = value;
}

// The ssh hosts and login as given.
void SshSettings(const SetupOptions& options, state::SetupSettings* s) {
  std::vector<std::string> replicas;
  for (const auto& h : options.ssh.hosts) {
    if (h.role == core::Role::Server()) {
      s->server = h.address;
      s->server_private_ip = h.private_address;
    } else if (h.role == core::Role::Client()) {
      s->client = h.address;
      s->client_private_ip = h.private_address;
    } else if (h.role.IsReplica()) {
      replicas.push_back(h.address);
    }
  }
  s->replicas.addresses = replicas;
  s->ssh_user = options.ssh.user;
  s->ssh_port = options.ssh.port;
  s->ssh_key = options.ssh.key_path;
}

// The fleet as asked for.
void AwsSettings(const SetupOptions& options, state::SetupSettings* s) {
  const auto& a = options.aws;
  s->region = a.region;
  s->server_instance = a.server.type;
  s->server_arch = aws::ArchName(a.server.arch);
  s->client_instance = a.client.type;
  s->client_arch = aws::ArchName(a.client.arch);
  s->replica_instance = a.replica.type;
  s->replica_arch = aws::ArchName(a.replica.arch);
  s->replicas.count = a.replicas;
  if (a.clients > 1) s->client_count = a.clients;
  s->ssh_user = options.ssh.user;
}

// The setup flags as given, recorded in state.json's "settings".
state::SetupSettings SettingsOf(const SetupOptions& options) {
  state::SetupSettings settings{.pin_cpus = options.pin_cpus};
  for (const auto* e : options.engines) settings.engines.push_back(e->name);
  for (const auto& [name, path] : options.binaries) SetEngineFlag(&settings, name, "binary", path);
  for (const auto& [name, v] : options.versions) SetEngineFlag(&settings, name, "version", v.value);
  if (options.provider == state::ProviderKind::kSsh) SshSettings(options, &settings);
  if (options.provider == state::ProviderKind::kAws) AwsSettings(options, &settings);
  if (options.provider == state::ProviderKind::kLocal) {
    settings.replicas.count = options.local_replicas;
  }
  return settings;
}

// A setup of that id that is still there (not destroyed or failed) is not replaced; neither
// is a corrupt one, unless forced. `existing`: that setup as state::Load read it.
core::Status Replaceable(const std::string& id, const core::Result<state::SetupState>& existing,
                         const IfCorrupt& if_corrupt) {
  if (!existing && existing.error().kind != core::ErrorKind::kNotFound && !if_corrupt.force) {
    return core::Fail(existing.error().kind,
                      existing.error().message + "; " +
                          (if_corrupt.how_to_force.empty()
                               ? std::string("a forced setup replaces it")
                               : "pass " + if_corrupt.how_to_force + " to replace it"));
  }
  if (existing && existing->status != state::SetupStatus::kDestroyed &&
      existing->status != state::SetupStatus::kFailed) {
    return core::Fail(core::ErrorKind::kUsage, "setup \"" + id + "\" already exists (status " +
                                                   state::ToString(existing->status) +
                                                   "); pick another id or run '" +
                                                   state::DestroyCommand(id) + "'");
  }
  return core::Ok();
}

// Replaceable, once an abandoned setup of that id is recovered. Held under the setup's lock.
core::Status CheckReplaceable(const std::string& id, const IfCorrupt& if_corrupt) {
  auto existing = state::Load(id);
  if (existing) {
    if (auto st = RecoverAbandoned(&*existing); !st) return st;
  }
  return Replaceable(id, existing, if_corrupt);
}

}  // namespace

core::Result<std::optional<std::filesystem::path>> DryRunSetup(const SetupOptions& options) {
  if (auto st = state::ValidateId(options.id); !st) return tl::unexpected(st.error());
  // Read, not locked or recovered: a dry run leaves no file behind.
  if (auto st = Replaceable(options.id, state::Load(options.id), options.if_corrupt); !st) {
    return tl::unexpected(st.error());
  }
  return providers::MakeProvider(options.provider)->DryRun(options.id, options);
}

core::Result<state::SetupState> CreateSetup(const SetupOptions& options, const core::Clock& clock) {
  state::SetupState s;
  s.id = options.id.empty() ? core::FormatTimestampId(clock.WallNow()) : options.id;
  if (auto st = state::ValidateId(s.id); !st) return tl::unexpected(st.error());
  auto provider = providers::MakeProvider(options.provider);
  // Refused before the lock and the record: a refused setup leaves no "failed" setup behind.
  if (auto st = provider->CheckRequest(options); !st) return tl::unexpected(st.error());

  auto lock = state::SetupLock::Acquire(s.id);
  if (!lock) return tl::unexpected(lock.error());
  if (auto st = CheckReplaceable(s.id, options.if_corrupt); !st) return tl::unexpected(st.error());
  s.provider = options.provider;
  s.created_at = core::NowIso8601(clock);
  s.status = state::SetupStatus::kProvisioning;
  s.settings = SettingsOf(options);
  if (options.provider == state::ProviderKind::kAws) s.ubuntu_version = options.aws.ubuntu_version;
  s.tune_network = options.tune_network;
  if (auto st = state::Save(&s); !st) return tl::unexpected(st.error());

  providers::SetupRequest request = options;
  request.on_installing = [&s] {
    s.status = state::SetupStatus::kInstalling;
    return state::Save(&s);
  };
  core::Notef("setup {}: {} engines on the {} provider", s.id,
              state::IsRemote(options.provider) ? "installing" : "locating",
              state::ToString(options.provider));
  auto provisioned = provider->Provision(&s, request);
  if (!provisioned || core::InterruptRequested()) {
    s.status = state::SetupStatus::kFailed;
    (void)state::Save(&s);
    if (!provisioned) return tl::unexpected(provisioned.error());
    return core::Fail(core::ErrorKind::kInterrupted, "interrupted during setup");
  }
  s.status = state::SetupStatus::kReady;
  if (auto st = state::Save(&s); !st) return tl::unexpected(st.error());
  std::fputs("Done.\n", stderr);
  return s;
}

std::optional<providers::BilledStack> StackLeftByFailedSetup(const std::string& id) {
  auto s = state::Load(id);
  if (!s || s->status != state::SetupStatus::kFailed) return std::nullopt;
  return providers::BilledStackOf(*s);
}

core::Status DestroySetup(const std::string& id, const DestroyOptions& options) {
  if (auto st = state::ValidateId(id); !st) return st;
  auto probe = state::Load(id);
  if (!probe && probe.error().kind == core::ErrorKind::kNotFound) {
    return tl::unexpected(probe.error());
  }
  auto lock = state::SetupLock::Acquire(id);
  if (!lock) return tl::unexpected(lock.error());
  auto s = state::Load(id);
  if (!s && s.error().kind != core::ErrorKind::kNotFound)
    return RemoveCorrupt(id, s.error(), options.if_corrupt);
  if (!s) return tl::unexpected(s.error());
  if (auto st = RecoverAbandoned(&*s); !st) return st;
  if (s->status == state::SetupStatus::kDestroyed) {
    core::Notef("setup \"{}\" is already destroyed; nothing to do", id);
    return core::Ok();
  }
  auto provider = providers::MakeProvider(s->provider);
  const state::SetupStatus previous = s->status;
  s->status = state::SetupStatus::kDestroying;
  if (auto st = state::Save(&*s); !st) return st;
  auto destroyed = provider->Destroy(&*s);
  // Forced: prefixes whose keys cannot be removed are named and forgotten, then the rest goes.
  if (!destroyed && options.forget_run_keys && provider->ForgetRunKeys(&*s)) {
    destroyed = provider->Destroy(&*s);
  }
  if (!destroyed) {
    s->status = previous;
    (void)state::Save(&*s);
    return destroyed;
  }
  s->status = state::SetupStatus::kDestroyed;
  if (auto st = state::Save(&*s); !st) return st;
  std::fputs("Done.\n", stderr);
  return core::Ok();
}

}  // namespace dfbench::scenarios
