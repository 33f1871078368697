// Redis Cluster's key space: 16384 hash slots (cluster-spec, "Keys distribution model"), split
// among the primaries that form a cluster and looked up by every client that routes to them.
#pragma once

namespace dfbench::protocol {

inline constexpr int kClusterSlots = 16384;

}  // namespace dfbench::protocol
