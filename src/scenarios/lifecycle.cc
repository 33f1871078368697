#include "scenarios/lifecycle.h"

#include "core/interrupt.h"
#include "core/log.h"
#include "core/time_format.h"

namespace dfbench::scenarios {

core::Result<state::SetupState> CreateSetup(const SetupOptions& options) {
  state::SetupState s;
  s.id =
      options.id.empty() ? core::FormatTimestampId(std::chrono::system_clock::now()) : options.id;
  if (auto st = state::ValidateId(s.id); !st) return tl::unexpected(st.error());
  auto provider = providers::MakeProvider(options.provider);
  if (!provider) return tl::unexpected(provider.error());

  auto lock = state::SetupLock::Acquire(s.id);
  if (!lock) return tl::unexpected(lock.error());
  if (auto existing = state::Load(s.id); existing) {
    if (existing->status != state::kStatusDestroyed) {
      return core::Fail(core::ErrorKind::kUsage,
                        "setup \"" + s.id + "\" already exists (status " + existing->status +
                            "); pick another --id or run 'dfbench destroy --id " + s.id + "'");
    }
  }
  s.provider = options.provider;
  s.created_at = core::NowIso8601();
  s.status = state::kStatusProvisioning;
  s.settings = {{"engines", nlohmann::json::array()}, {"pin_cpus", options.pin_cpus}};
  for (const auto* e : options.engines) s.settings["engines"].push_back(e->name);
  for (const auto& [name, path] : options.binaries) s.settings[name + "_binary"] = path;
  if (auto st = state::Save(&s); !st) return tl::unexpected(st.error());

  providers::SetupRequest request{.engines = options.engines,
                                  .binaries = options.binaries,
                                  .skip_missing_engines = options.skip_missing_engines,
                                  .pin_cpus = options.pin_cpus};
  core::Notef("setup {}: locating engines on the {} provider", s.id, options.provider);
  auto provisioned = (*provider)->Provision(&s, request);
  if (!provisioned || core::InterruptRequested()) {
    s.status = state::kStatusFailed;
    (void)state::Save(&s);
    if (!provisioned) return tl::unexpected(provisioned.error());
    return core::Fail(core::ErrorKind::kInterrupted, "interrupted during setup");
  }
  s.status = state::kStatusReady;
  if (auto st = state::Save(&s); !st) return tl::unexpected(st.error());
  return s;
}

core::Result<std::unique_ptr<WorkSession>> WorkSession::Open(const std::string& id,
                                                             const std::string& working_status) {
  if (auto st = state::ValidateId(id); !st) return tl::unexpected(st.error());
  // Look before locking so an unknown id does not leave an empty directory behind.
  if (auto probe = state::Load(id); !probe) return tl::unexpected(probe.error());
  auto lock = state::SetupLock::Acquire(id);
  if (!lock) return tl::unexpected(lock.error());
  std::unique_ptr<WorkSession> session(new WorkSession(std::move(*lock)));
  auto loaded = state::Load(id);
  if (!loaded) return tl::unexpected(loaded.error());
  session->setup_ = std::move(*loaded);
  if (session->setup_.status != state::kStatusReady) {
    return core::Fail(core::ErrorKind::kNotFound, "setup \"" + id + "\" is not ready (status=\"" +
                                                      session->setup_.status + "\")");
  }
  auto guard = state::StatusGuard::Enter(&session->setup_, working_status);
  if (!guard) return tl::unexpected(guard.error());
  session->guard_.emplace(std::move(*guard));
  return session;
}

core::Status DestroySetup(const std::string& id) {
  if (auto st = state::ValidateId(id); !st) return st;
  auto probe = state::Load(id);
  if (!probe) return tl::unexpected(probe.error());
  auto lock = state::SetupLock::Acquire(id);
  if (!lock) return tl::unexpected(lock.error());
  auto s = state::Load(id);
  if (!s) return tl::unexpected(s.error());
  if (s->status == state::kStatusDestroyed) {
    core::Notef("setup \"{}\" is already destroyed; nothing to do", id);
    return core::Ok();
  }
  auto provider = providers::MakeProvider(s->provider);
  if (!provider) return tl::unexpected(provider.error());
  const std::string previous = s->status;
  s->status = state::kStatusDestroying;
  if (auto st = state::Save(&*s); !st) return st;
  if (auto st = (*provider)->Destroy(&*s); !st) {
    s->status = previous;
    (void)state::Save(&*s);
    return st;
  }
  s->status = state::kStatusDestroyed;
  return state::Save(&*s);
}

}  // namespace dfbench::scenarios
