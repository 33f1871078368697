// A real Redis Cluster for tests: N redis-server primaries on free ports of 127.0.0.1, the slots
// split evenly, formed with the same code dfbench forms its clusters with.
//
//   auto cluster = dfbench::testing::TestCluster::StartRedis(3);
//   ASSERT_TRUE(cluster) << cluster.error().message;
//   int seed_port = cluster->node(0).port();
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "support/test_server.h"

namespace dfbench::testing {

class TestCluster {
 public:
  // `node_args(i)`, when given, adds node i's own flags (a TLS port, say).
  static core::Result<TestCluster> StartRedis(
      int nodes, const std::function<std::vector<std::string>(int)>& node_args = {});

  const TestServer& node(size_t i) const { return nodes_[i]; }
  TestServer& node(size_t i) { return nodes_[i]; }
  size_t size() const { return nodes_.size(); }

 private:
  std::vector<TestServer> nodes_;
};

}  // namespace dfbench::testing
