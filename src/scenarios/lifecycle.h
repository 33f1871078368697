// The setup lifecycle: create and destroy (work under lock: scenarios/bench_session.h).
#pragma once

#include <map>
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
  std::map<std::string, std::string> binaries;           // engine name -> --<engine>_binary
  std::map<std::string, engines::VersionSpec> versions;  // engine name -> --<engine>_version
  bool skip_missing_engines = false;                     // quickstart
  bool pin_cpus = true;
  int local_replicas = 0;               // local provider: replica engines on this machine
  providers::SshRequest ssh;            // ssh provider: hosts, user, key, port (aws: the user)
  providers::AwsRequest aws;            // aws provider: region, instances, replicas, Ubuntu release
  std::string dragonfly_version;        // the Dragonfly build to install ("" = present or latest)
  bool tune_network = false;            // ssh: steer the server NIC onto the top CPUs
  providers::ClientTools client_tools;  // ssh, aws: load generators found or built on the client
  int engine_port = 0;                  // --port: engines listen here; 0: the provider's default
};

// Creates ~/.dfbench/runs/<id>/, provisions it through the provider ("provisioning", then
// "installing" while engines are found or installed) and leaves it "ready" ("Done." on stderr).
// kUsage when the id is taken by a setup that is neither destroyed nor failed (a failed one is
// provisioned again, keeping its directory: e.g. the SSH key the hosts were just given); on
// failure the setup is left "failed" with the reason on stderr.
core::Result<state::SetupState> CreateSetup(const SetupOptions& options);

// Destroys a setup: releases what its provider holds and marks it "destroyed" (results stay).
// Idempotent: an already destroyed setup is a note, not an error. kNotFound for an unknown id.
core::Status DestroySetup(const std::string& id);

}  // namespace dfbench::scenarios
