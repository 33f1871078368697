// Redis Cluster routing for the load generator: a key's hash slot, the slot → node map read
// from CLUSTER SLOTS, and the MOVED / ASK redirections a node answers with when it does not own
// a key's slot. The rules are Redis Cluster's (cluster-spec: "Keys distribution model",
// "Redirection and resharding").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "protocol/cluster_slots.h"
#include "protocol/reply.h"

namespace dfbench::loadgen {

using protocol::kClusterSlots;

// CRC16 (XMODEM) of the key, or of its hash tag — the part between the first '{' and the next
// '}' when that part is not empty — modulo 16384.
uint16_t HashSlot(std::string_view key);

struct ClusterNode {
  std::string host;
  int port = 0;
  bool operator==(const ClusterNode&) const = default;
};

struct SlotMap {
  std::vector<ClusterNode> nodes;               // every primary that owns at least one slot
  std::array<uint16_t, kClusterSlots> owner{};  // slot → index into nodes

  // The node's index, appended when it is new.
  uint16_t IndexOf(const ClusterNode& node);
};

// Builds the map from a CLUSTER SLOTS reply: [[first, last, [host, port, id...], replicas...]...].
// An empty host means the node that answered (`seed_host`). kEnvironment when the reply is not
// that shape or leaves a slot without an owner (the cluster is not ready).
core::Result<SlotMap> ParseClusterSlots(const protocol::Reply& reply, const std::string& seed_host);

// "MOVED 3999 127.0.0.1:6381" / "ASK 3999 127.0.0.1:6381" (the error text without its '-').
struct Redirect {
  enum class Kind : uint8_t { kMoved, kAsk } kind = Kind::kMoved;
  uint16_t slot = 0;
  ClusterNode node;
};
std::optional<Redirect> ParseRedirect(std::string_view error_text);

}  // namespace dfbench::loadgen
