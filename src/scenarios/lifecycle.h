// The setup lifecycle shared by every mutating command: create, work under lock, destroy.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "engines/engine.h"
#include "providers/provider.h"
#include "state/state.h"

namespace dfbench::scenarios {

struct SetupOptions {
  std::string id;  // empty: a timestamp id
  std::string provider = "local";
  std::vector<const engines::EngineSpec*> engines;
  std::map<std::string, std::string> binaries;  // engine name -> --<engine>_binary
  bool skip_missing_engines = false;            // quickstart
  bool pin_cpus = true;
  int local_replicas = 0;         // local provider: replica engines on this machine
  providers::SshRequest ssh;      // ssh provider: hosts, user, key, port (aws: the user)
  providers::AwsRequest aws;      // aws provider: region, instances, replicas, Ubuntu release
  std::string dragonfly_version;  // ssh: the Dragonfly build to install ("" = present or latest)
  bool tune_network = false;      // ssh: steer the server NIC onto the top CPUs
  int engine_port = 0;            // --port: engines listen here; 0: the provider's default
};

// Creates ~/.dfbench/runs/<id>/, provisions it through the provider ("provisioning", then
// "installing" while engines are found or installed) and leaves it "ready" ("Done." on stderr).
// kUsage when the id is taken by a setup that is neither destroyed nor failed (a failed one is
// provisioned again, keeping its directory: e.g. the SSH key the hosts were just given); on
// failure the setup is left "failed" with the reason on stderr.
core::Result<state::SetupState> CreateSetup(const SetupOptions& options);

// A setup held for work: its lock, its state, and the guard that restores its status.
class WorkSession {
 public:
  // Locks the setup (kLocked at once when held), loads it, checks it is "ready"
  // (kNotFound otherwise, naming the status) and moves it to `working_status`.
  static core::Result<std::unique_ptr<WorkSession>> Open(const std::string& id,
                                                         const std::string& working_status);
  state::SetupState& setup() { return setup_; }
  // Saves the state (e.g. after appending to the history) without changing the status.
  core::Status Save() { return state::Save(&setup_); }

 private:
  WorkSession(state::SetupLock lock) : lock_(std::move(lock)) {}
  state::SetupLock lock_;
  state::SetupState setup_;
  std::optional<state::StatusGuard> guard_;
};

// --dragonfly_version before a run: when a build is given and dragonfly is among `engines`,
// the provider installs it on the fleet and the setup (engine binary and version) is saved.
// Otherwise nothing happens (a note says the flag was ignored when dragonfly is not run).
core::Status InstallRequestedBuild(WorkSession& session, providers::Provider& provider,
                                   providers::Fleet& fleet,
                                   const std::vector<const engines::EngineSpec*>& engines,
                                   const std::string& dragonfly_version);

// Destroys a setup: releases what its provider holds and marks it "destroyed" (results stay).
// Idempotent: an already destroyed setup is a note, not an error. kNotFound for an unknown id.
core::Status DestroySetup(const std::string& id);

}  // namespace dfbench::scenarios
