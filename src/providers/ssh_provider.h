// The ssh provider: hosts the user owns, reached over SSH. Setup logs in to each one (with the
// user's key or a generated pair), records their facts, uploads dfbench to the client, finds or
// builds memtier_benchmark / dfly_bench there when asked (client_tools.h), finds or installs
// the engines on the server (Dragonfly also on replicas) and optionally tunes the
// server's NIC. Destroy stops what dfbench left running there and removes its work directories.
//
// What it records in state.provider_data (state/provider_data.h; any provider that hands over
// hosts reachable by SSH records `ssh` the same way, so `dfbench ssh` and `info` work for it):
// `ssh` (the login and the hosts), `engine_port`, `installs` (how each engine got onto the
// server), `load_generators` (when setup was asked for them) and `tune_network` (when
// --tune-network was given).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "hosts/ssh_command.h"
#include "providers/provider.h"

namespace dfbench::providers {

class SshProvider : public Provider {
 public:
  state::ProviderKind Kind() const override { return state::ProviderKind::kSsh; }
  core::Status Provision(state::SetupState* state, const SetupRequest& request) override;
  // kUsage for an --ssh-key that is no readable regular file (a FIFO, a device, a directory, a
  // dangling link), refused before the plan is shown and the setup recorded.
  core::Status CheckRequest(const SetupRequest& request) override;
  // One SshHost per role (shared connections under <setup>/ssh/); nothing is pinned.
  core::Result<Fleet> Connect(const state::SetupState& state) override;
  // Hosts that cannot be reached are reported and left as they are; the generated key pair is
  // removed. kEnvironment when a reachable host could not be cleaned.
  core::Status Destroy(state::SetupState* state) override;
  // Stops the daemons and commands recorded under each reachable host's work directory (an
  // unreachable host is a line on stderr).
  core::Status StopLeftovers(const state::SetupState& state) override;
  core::Status InstallEngine(state::SetupState* state, Fleet& fleet,
                             const engines::EngineSpec& spec,
                             const engines::VersionSpec& version) override;
};

// How the hosts of a setup are logged in to: what provider_data.ssh records.
using SshLogin = state::SshRecord;

// The part of a setup every provider of SSH hosts shares, once the hosts exist and the key is
// known: records `login` as provider_data.ssh, logs in to each host (trying again for up to
// `login_wait` while a new machine's sshd comes up), records their facts, uploads dfbench to
// the client, installs the engines on the server (Dragonfly also on replicas) and tunes the
// server's NIC when asked. `explain_login_failure` may add advice to a login error. Its
// numbered banners continue after `steps_done` banners the caller printed. `clock` times the
// login wait.
core::Status ProvisionSshHosts(state::SetupState* state, const SetupRequest& request,
                               const SshLogin& login, std::chrono::seconds login_wait,
                               const std::function<void(core::Error*)>& explain_login_failure,
                               int steps_done = 0, core::Clock& clock = core::RealClock());

// The roles of a setup reachable over SSH, in order (server, client, replica-0, ...); empty
// when the setup records no SSH login.
std::vector<core::Role> SshRoles(const state::SetupState& state);
// How a person logs in to the role named `role` (core::Role::Name) of such a setup (`dfbench
// ssh`, `info`): the name as typed, so that a word that names no role gets the same answer as a
// role the setup lacks. kUsage naming the roles when there is no such role, or when the setup's
// hosts are not reached over SSH.
core::Result<hosts::SshEndpoint> LoginEndpoint(const state::SetupState& state,
                                               std::string_view role);

}  // namespace dfbench::providers
