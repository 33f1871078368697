#include "support/test_cluster.h"

#include <chrono>

#include "engines/cluster_formation.h"

namespace dfbench::testing {

core::Result<TestCluster> TestCluster::StartRedis(
    int nodes, const std::function<std::vector<std::string>(int)>& node_args) {
  TestCluster cluster;
  std::vector<engines::ClusterMember> members;
  for (int i = 0; i < nodes; ++i) {
    // nodes.conf lands in each server's own scratch directory (--dir). The bus port is free
    // too: the default, port + 10000, overflows from the ephemeral ports the servers get.
    const int bus_port = FreePort();
    std::vector<std::string> args = {"--cluster-enabled", "yes", "--cluster-port",
                                     std::to_string(bus_port)};
    if (node_args) {
      const auto own = node_args(i);
      args.insert(args.end(), own.begin(), own.end());
    }
    auto server = TestServer::StartRedis(args);
    if (!server) return tl::unexpected(server.error());
    members.push_back({.host = server->host(), .port = server->port(), .bus_port = bus_port});
    cluster.nodes_.push_back(std::move(*server));
  }
  if (auto st = engines::FormCluster(members, std::chrono::seconds(30)); !st) {
    return tl::unexpected(st.error());
  }
  return cluster;
}

}  // namespace dfbench::testing
