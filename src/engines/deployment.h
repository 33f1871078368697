// An engine as a benchmark meets it: one process, or a Redis Cluster of shards on the server
// host (each its own process on its own share of the CPUs), started, formed, checked, flushed
// and stopped whole. The first process is the seed: where clients connect first, whose version
// and tuning speak for the deployment.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "engines/engine.h"

namespace dfbench::engines {

class Deployment {
 public:
  // Starts TopologyOf(spec, tuning).processes() processes of `binary` (the first on options.port,
  // the others on free ports) and, for a cluster of shards, forms it (waiting for
  // cluster_state:ok). Any failure stops what started and names the shard.
  static core::Result<Deployment> Start(hosts::Host& host, const EngineSpec& spec,
                                        const std::string& binary, const Tuning& tuning,
                                        const StartOptions& options = {});

  // Meets an endpoint dfbench did not start (engines::Attach); a Redis Cluster (INFO cluster
  // says so) as every primary its CLUSTER SLOTS names, the one asked for first.
  static core::Result<Deployment> Attach(const EngineSpec& spec, const AttachOptions& options);

  const EngineSpec& spec() const { return processes_.front().spec(); }
  RunningEngine& seed() { return processes_.front(); }
  const RunningEngine& seed() const { return processes_.front(); }
  std::vector<RunningEngine>& processes() { return processes_; }
  // Clients must speak the cluster protocol (follow the slot map).
  bool cluster() const { return topology_.cluster; }
  const std::string& version() const { return seed().version(); }
  // The seed's tuning, with "shards" and every shard's port and CPUs ("shard_ports",
  // "shard_cpus") for a cluster of shards.
  const nlohmann::json& tuning() const { return tuning_; }

  // `step` (&RunningEngine::HealthCheck, Flush, Stop) on every process, all of them tried; the
  // first failure, naming its shard in a cluster of shards.
  core::Status OnEach(core::Status (RunningEngine::*step)());
  // True while every process is.
  bool Alive();
  // The log tail of the first process that is gone (naming its shard), else the seed's.
  std::string LogTail();

 private:
  Deployment(std::vector<RunningEngine> processes, Topology topology, nlohmann::json tuning)
      : processes_(std::move(processes)), topology_(topology), tuning_(std::move(tuning)) {}
  std::string Label(size_t i) const;

  std::vector<RunningEngine> processes_;
  Topology topology_;
  nlohmann::json tuning_;
};

}  // namespace dfbench::engines
