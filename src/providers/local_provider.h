// The local provider: server and client are this machine, kept apart by CPU pinning.
#pragma once

#include <optional>
#include <vector>

#include "providers/provider.h"

namespace dfbench::providers {

class LocalProvider : public Provider {
 public:
  state::ProviderKind Kind() const override { return state::ProviderKind::kLocal; }
  // Records this machine's facts and the engines found on it. With request.pin_cpus and at
  // least two usable CPUs, the server gets the first half of them (at least one) and the
  // client the rest; with request.local_replicas, replica roles are recorded too, each on
  // CPUs of its own where there are enough (SplitCpusWithReplicas), else sharing the server's
  // (a line on stderr says so). Binaries: request.binaries[name] (must be executable), a pinned
  // version from the engine cache, the engine's program on PATH, else the build added to or
  // installed in the engine cache last; a missing one is skipped with a line on stderr or is
  // kEnvironment.
  core::Status Provision(state::SetupState* state, const SetupRequest& request) override;
  // One LocalHost (work dir SetupDir(id)/work) serving as both server and client.
  core::Result<Fleet> Connect(const state::SetupState& state) override;
  // StopLeftovers, then removes SetupDir(id)/work. Idempotent.
  core::Status Destroy(state::SetupState* state) override;
  // Stops and removes what the records under SetupDir(id)/work name (hosts::StopLeftovers): an
  // engine's children outlive a killed dfbench (the parent-death signal reaches the engine
  // only), and so do its files.
  core::Status StopLeftovers(const state::SetupState& state) override;
  // As at setup: a tag, latest, a URL or a file into the engine cache under ~/.dfbench; system
  // from the PATH.
  core::Status InstallEngine(state::SetupState* state, Fleet& fleet,
                             const engines::EngineSpec& spec,
                             const engines::VersionSpec& version) override;
};

// The server/client CPU split of `allowed`: the first half (at least one) and the rest.
// Both empty when fewer than two CPUs are allowed.
struct CpuSplit {
  std::vector<int> server;
  std::vector<int> client;
};
CpuSplit SplitCpus(const std::vector<int>& allowed);

// Master, `replicas` replicas and client on disjoint CPUs: an equal share of `allowed` each, in
// that order, the client taking what is left over. nullopt when there are fewer CPUs than roles.
struct ReplicaCpuSplit {
  std::vector<int> server;
  std::vector<std::vector<int>> replicas;
  std::vector<int> client;
};
std::optional<ReplicaCpuSplit> SplitCpusWithReplicas(const std::vector<int>& allowed, int replicas);

}  // namespace dfbench::providers
