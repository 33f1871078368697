// The endpoint provider: servers the user runs (a managed service, a staging cluster), named by
// URL, one per engine. dfbench never starts, stops or installs anything there; the load
// generator runs on this machine. Passwords are never recorded: setup records where each
// command reads one (a file or an environment variable).
#pragma once

#include "core/clock.h"
#include "providers/provider.h"

namespace dfbench::providers {

class EndpointProvider : public Provider {
 public:
  // `clock`'s wall time names each run's key namespace.
  explicit EndpointProvider(const core::Clock& clock = core::RealClock()) : clock_(&clock) {}

  state::ProviderKind Kind() const override { return state::ProviderKind::kEndpoint; }
  // Meets each endpoint (engines::Attach: PING, version, the commands it lacks), its engine
  // named by the request or by its INFO server; records it (URL without password, TLS files,
  // where the password is read, whether flushing is allowed) and this machine as the client.
  // kUsage for a bad URL, an engine named twice or one that does not speak the Redis protocol;
  // kEnvironment for an endpoint that cannot be met.
  core::Status Provision(state::SetupState* state, const SetupRequest& request) override;
  // Provision's checks on a setup of its own, so a dry run refuses what setup would refuse.
  core::Result<std::optional<std::filesystem::path>> DryRun(
      const std::string& setup_id, const SetupRequest& request) const override;
  // What Provision refuses without reaching a server (a bad URL, a password given twice, a
  // password or TLS file that cannot be read), refused before the setup is recorded.
  core::Status CheckRequest(const SetupRequest& request) override;
  // This machine as client (and as the server host, which runs nothing), and each endpoint
  // with its password read again and, unless flushing is allowed, a key namespace of its own
  // for this command's run ("dfbench:<setup>:<time>:").
  core::Result<Fleet> Connect(const state::SetupState& state) override;
  // Removes the keys of the runs it records (RemoveRunKeys; kept, and the setup with them, when
  // they cannot be removed), then the setup's work directory; the endpoints' other data is not
  // touched.
  core::Status Destroy(state::SetupState* state) override;
  // Each recorded prefix's keys removed over every primary of its endpoint (SCAN + UNLINK, or
  // KEYS and DEL where those are not offered).
  core::Status RemoveRunKeys(state::SetupState* state) override;
  // "warning: ... may still hold N key(s) (or an unknown number) under PREFIX", per prefix.
  bool ForgetRunKeys(state::SetupState* state) override;
  // kUsage: an endpoint's engine is whatever version the service runs.
  core::Status InstallEngine(state::SetupState* state, Fleet& fleet,
                             const engines::EngineSpec& spec,
                             const engines::VersionSpec& version) override;

 private:
  const core::Clock* clock_;
};

}  // namespace dfbench::providers
