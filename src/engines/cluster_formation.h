// Forms a Redis Cluster out of running, empty primaries started with cluster mode on (redis and
// valkey's `--cluster-enabled yes`): the 16384 slots split evenly in node order, every node
// introduced to the first, and a wait until each node sees the whole cluster.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "protocol/server_endpoint.h"

namespace dfbench::engines {

struct ClusterMember {
  // Where the other nodes reach it.
  std::string host;
  int port = 0;
  int bus_port = 0;  // the cluster bus (--cluster-port); 0: the default, port + 10000
  // Where dfbench reaches it (a forwarded port on an SSH host, TLS); no address: host and port,
  // over plain TCP.
  protocol::ServerEndpoint control;
};

// The slots node `index` of `count` gets: [first, last].
struct SlotRange {
  int first = 0;
  int last = 0;
};
SlotRange EvenSlotRange(int index, int count);

// Assigns the slots, meets the nodes, and waits (up to `timeout`) until every node reports
// cluster_state:ok, knows all the others and maps every slot. kEnvironment naming the node and
// what it still reports when the wait expires or a node refuses. The wait is timed by `clock`.
core::Status FormCluster(const std::vector<ClusterMember>& members,
                         std::chrono::milliseconds timeout, core::Clock& clock = core::RealClock());

}  // namespace dfbench::engines
