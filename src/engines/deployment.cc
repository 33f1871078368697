#include "engines/deployment.h"

#include <algorithm>
#include <set>

#include "core/cpu_share.h"
#include "core/format.h"
#include "engines/cluster_formation.h"
#include "protocol/blocking_client.h"

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

// The primaries of a Redis Cluster as CLUSTER SLOTS names them (each once, in slot order); empty
// when the server is not in cluster mode (INFO cluster: cluster_enabled:0, or refused).
core::Result<std::vector<std::pair<std::string, int>>> ClusterPrimaries(
    const protocol::ServerEndpoint& endpoint) {
  auto client = protocol::ConnectTo(endpoint, std::chrono::seconds(10));
  if (!client) return tl::unexpected(client.error());
  std::vector<std::pair<std::string, int>> primaries;
  auto info = client->Command({"INFO", "cluster"});
  if (!info) return tl::unexpected(info.error());
  if (info->is_error() || protocol::InfoField(info->str, "cluster_enabled") != "1") {
    return primaries;
  }
  auto slots = client->Command({"CLUSTER", "SLOTS"});
  if (!slots) return tl::unexpected(slots.error());
  if (slots->is_error()) {
    return core::Fail(core::ErrorKind::kEnvironment, "CLUSTER SLOTS answered " + slots->str);
  }
  for (const auto& range : slots->elements) {
    // [first slot, last slot, [host, port, id...] of the primary, replicas...]
    if (range.elements.size() < 3 || range.elements[2].elements.size() < 2) continue;
    const auto& node = range.elements[2].elements;
    std::pair<std::string, int> primary{node[0].str, static_cast<int>(node[1].integer)};
    // A node that announces no address is reached where we asked.
    if (primary.first.empty()) primary.first = endpoint.address;
    if (std::find(primaries.begin(), primaries.end(), primary) == primaries.end()) {
      primaries.push_back(primary);
    }
  }
  return primaries;
}

}  // namespace

core::Result<Deployment> Deployment::Attach(const EngineSpec& spec, const AttachOptions& options) {
  auto primaries = ClusterPrimaries(options.endpoint);
  if (!primaries) {
    return core::Fail(primaries.error().kind, spec.name + ": " + primaries.error().message);
  }
  std::vector<AttachOptions> nodes;
  for (const auto& [address, port] : *primaries) {
    AttachOptions node = options;
    node.endpoint.address = address;
    node.endpoint.port = port;
    // The address asked for leads, as the seed.
    const bool asked = address == options.endpoint.address && port == options.endpoint.port;
    nodes.insert(asked ? nodes.begin() : nodes.end(), std::move(node));
  }
  if (nodes.empty()) nodes.push_back(options);
  std::vector<RunningEngine> processes;
  nlohmann::json addresses = nlohmann::json::array();
  for (const auto& node : nodes) {
    auto engine = engines::Attach(spec, node);
    if (!engine) return tl::unexpected(engine.error());
    addresses.push_back(node.endpoint.address + ":" + std::to_string(node.endpoint.port));
    processes.push_back(std::move(*engine));
  }
  nlohmann::json recorded = processes.front().tuning();
  const bool cluster = !primaries->empty();
  if (cluster) recorded["cluster_nodes"] = std::move(addresses);
  const Topology topology{.shards = cluster ? static_cast<int>(processes.size()) : 0,
                          .cluster = cluster};
  return Deployment(std::move(processes), topology, std::move(recorded));
}

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
                       .control = engine->control()});
    shard_cpus.push_back(shard.cpus);
    processes.push_back(std::move(*engine));
  }
  if (auto st = FormCluster(members, kFormTimeout, *options.clock); !st) {
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
