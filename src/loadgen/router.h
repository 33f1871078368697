// Where a worker's requests go: one server, or a Redis Cluster by its slot map (chosen once, at
// construction). The router decides which node a request's key belongs to and what a MOVED or
// ASK reply means for the request; the worker only does the connection work its answers ask
// for. Pure: no sockets, no clock.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "loadgen/cluster.h"

namespace dfbench::loadgen {

// A request sent on more often than this is answered with an error: the cluster keeps
// pointing elsewhere (a slot moving back and forth, or a misconfigured node).
inline constexpr uint8_t kMaxRedirects = 5;

class Router {
 public:
  // One server: every request goes to node 0 and no error is a redirection.
  Router() = default;
  // A cluster: node i is `map.nodes[i]`; this router's copy of the map follows MOVED replies.
  explicit Router(SlotMap map) : cluster_(true), map_(std::move(map)) {}

  // The node of a request whose key `key()` gives; with one server the key is never asked for
  // (drawing it costs a format), so the single-node hot path pays no hash.
  template <typename KeyFn>
  uint16_t NodeOf(KeyFn&& key) const {
    return cluster_ ? map_.owner[HashSlot(key())] : 0;
  }

  // The redirection an error reply asks for; never one with a single server, where "MOVED ..."
  // is an error like any other.
  std::optional<Redirect> RedirectOf(std::string_view error_text) const {
    if (!cluster_) return std::nullopt;
    return ParseRedirect(error_text);
  }

  // What a redirection means for the request it answered.
  struct Step {
    enum class Kind : uint8_t {
      kMoved,   // resent to `node`, which owns the slot from now on (the map is updated)
      kAsk,     // resent to `node` after an ASKING, this request only (the map stays)
      kGiveUp,  // answered with `error` instead
    } kind = Kind::kGiveUp;
    uint16_t node = 0;
    std::string error;
  };
  // Opens connections to a node first named by a redirection (a primary added while running),
  // which gets index `index`; false when it cannot be reached (its name does not resolve).
  using OpenNode = std::function<bool(const ClusterNode& node, uint16_t index)>;
  // `redirect` came from node `from`, and is the `redirects`-th the request met. An empty host
  // ("MOVED 12 :7001") is `from`'s. A node first named is opened through `open` and, if it can
  // be reached, gets the next index; one that cannot is not remembered, so a later redirection
  // to it tries again. Only a cluster's router is asked (RedirectOf).
  Step Follow(const Redirect& redirect, uint16_t from, uint8_t redirects, const OpenNode& open);

 private:
  bool cluster_ = false;
  SlotMap map_;  // a cluster's: this worker's view
};

}  // namespace dfbench::loadgen
