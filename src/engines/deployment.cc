#include "engines/deployment.h"

#include <algorithm>
#include <set>

#include "core/cpu_share.h"
#include "engines/cluster_formation.h"

namespace dfbench::engines {
namespace {

constexpr auto kFormTimeout = std::chrono::seconds(30);

// `count` ports of the host free now and distinct from each other and from `taken`.
core::Result<std::vector<int>> DistinctFreePorts(hosts::Host& host, size_t count,
                                                 std::set<int>* taken) {
  std::vector<int> ports;
  for (int attempts = 0; ports.size() < count; ++attempts) {
    if (attempts > 100) {
      return core::Fail(core::ErrorKind::kEnvironment, "no free ports left on " + host.Name());
    }
    auto port = host.FreePort();
    if (!port) return tl::unexpected(port.error());
    if (taken->insert(*port).second) ports.push_back(*port);
  }
  return ports;
}

}  // namespace

core::Result<Deployment> Deployment::Start(hosts::Host& host, const EngineSpec& spec,
                                           const std::string& binary, const Tuning& tuning,
                                           const StartOptions& options) {
  const Topology topology = TopologyOf(spec, tuning);
  if (topology.shards == 0) {
    auto engine = engines::Start(host, spec, binary, tuning, options);
    if (!engine) return tl::unexpected(engine.error());
    nlohmann::json recorded = engine->tuning();
    std::vector<RunningEngine> one;
    one.push_back(std::move(*engine));
    return Deployment(std::move(one), topology, std::move(recorded));
  }
  const size_t count = static_cast<size_t>(topology.shards);
  std::set<int> taken;
  if (options.port > 0) taken.insert(options.port);
  auto ports = DistinctFreePorts(host, count, &taken);
  if (!ports) return tl::unexpected(ports.error());
  if (options.port > 0) (*ports)[0] = options.port;
  auto bus_ports = DistinctFreePorts(host, count, &taken);
  if (!bus_ports) return tl::unexpected(bus_ports.error());

  std::vector<RunningEngine> processes;
  std::vector<ClusterMember> members;
  nlohmann::json shard_cpus = nlohmann::json::array();
  for (size_t i = 0; i < count; ++i) {
    Tuning shard = tuning;
    shard.cpus = core::CpuShare(tuning.cpus, static_cast<int>(i), static_cast<int>(count));
    StartOptions shard_options = options;
    shard_options.port = (*ports)[i];
    shard_options.cluster_bus_port = (*bus_ports)[i];
    auto engine = engines::Start(host, spec, binary, shard, shard_options);
    if (!engine) {
      // Those started already stop as `processes` goes out of scope.
      return core::Fail(engine.error().kind, "shard " + std::to_string(i + 1) + " of " +
                                                 std::to_string(count) + ": " +
                                                 engine.error().message);
    }
    members.push_back({.host = engine->address(),
                       .port = engine->port(),
                       .bus_port = (*bus_ports)[i],
                       .control_host = engine->control().address,
                       .control_port = engine->control().port});
    shard_cpus.push_back(shard.cpus);
    processes.push_back(std::move(*engine));
  }
  if (auto st = FormCluster(members, kFormTimeout); !st) {
    return core::Fail(st.error().kind, spec.name + " cluster: " + st.error().message);
  }
  // The seed's tuning speaks for all but its CPUs: the deployment's are every shard's.
  nlohmann::json recorded = processes.front().tuning();
  recorded.erase("cpus");
  if (!tuning.cpus.empty()) recorded["cpus"] = tuning.cpus;
  recorded["shard_ports"] = *ports;
  recorded["shard_cpus"] = std::move(shard_cpus);
  return Deployment(std::move(processes), topology, std::move(recorded));
}

std::string Deployment::Label(size_t i) const {
  if (processes_.size() == 1) return "";
  return "shard " + std::to_string(i + 1) + " (port " + std::to_string(processes_[i].port()) +
         "): ";
}

core::Status Deployment::OnEach(core::Status (RunningEngine::*step)()) {
  core::Status first = core::Ok();
  for (size_t i = 0; i < processes_.size(); ++i) {
    auto st = (processes_[i].*step)();
    if (!st && first) first = core::Fail(st.error().kind, Label(i) + st.error().message);
  }
  return first;
}

bool Deployment::Alive() {
  return std::all_of(processes_.begin(), processes_.end(),
                     [](RunningEngine& p) { return p.Alive(); });
}

std::string Deployment::LogTail() {
  for (size_t i = 0; i < processes_.size(); ++i) {
    if (!processes_[i].Alive()) return Label(i) + processes_[i].LogTail();
  }
  return seed().LogTail();
}

}  // namespace dfbench::engines
