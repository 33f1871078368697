// A worker's connections and clients (private to the worker's files, worker*.cc). A client is
// memtier's: one key stream, one request budget, one open-loop schedule. It owns one
// connection, or in cluster mode one per node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "loadgen/clock.h"
#include "loadgen/pacer.h"
#include "loadgen/pending.h"
#include "loadgen/reconnect_backoff.h"
#include "loadgen/stream.h"
#include "loadgen/transport.h"
#include "loadgen/worker.h"
#include "protocol/memcache_text.h"
#include "protocol/request_buffer.h"
#include "protocol/resp_parser.h"

namespace dfbench::loadgen {

struct Worker::ClientState {
  ClientState(const Config& config, const Workload& workload, int global_client,
              uint64_t random_base)
      : workload(config, workload, global_client, random_base) {}

  ClientWorkload workload;
  Pacer pacer;
  std::vector<uint32_t> node_conns;  // connection id per node; one entry for one server
  int full_parks = 0;                // cluster: connections whose park is full; draws wait
  ClientTally* tally = nullptr;      // --client-stats: this client's figures (null: not kept)
};

// A connect without --connection-timeout's deadline: far enough never to come, near enough
// that adding it to the time does not overflow.
inline constexpr int64_t kNoDeadlineNs = INT64_MAX / 2;
// --reconnect-interval unset: more requests than a connection can ever send.
inline constexpr uint64_t kNeverReopen = UINT64_MAX / 2;

// A connection's reply scanner, of the run's protocol: chosen once, when it is made.
using ReplyScanner = std::variant<protocol::RespScanner, protocol::MemcacheScanner>;

struct Worker::Conn {
  enum class State : uint8_t { kIdle, kConnecting, kHandshake, kAuth, kReady, kBackoff, kDead };

  Conn(const Config& config, ClientState* owner, uint16_t node_index)
      : pending(static_cast<size_t>(config.load.pipeline) + 1),
        scanner(config.protocol == Protocol::kRedis
                    ? ReplyScanner(std::in_place_type<protocol::RespScanner>)
                    : ReplyScanner(std::in_place_type<protocol::MemcacheScanner>)),
        client(owner),
        node(node_index) {}

  // The transport closes the stream and its socket, which also leaves the epoll set.
  void CloseSocket(Transport& transport) noexcept {
    stream = nullptr;
    transport.Close(id);
  }
  // CloseSocket, and forgets everything of the connection that was: requests in flight,
  // bytes unsent and unread, the scanner's state.
  void Close(Transport& transport) {
    CloseSocket(transport);
    pending.Clear();
    out.clear();
    out_sent = 0;
    stash.clear();
    std::visit([](auto& s) { s.Reset(); }, scanner);
    want_write = false;
    rx_unattributed = 0;
    unstamped = 0;
  }

  Stream* stream = nullptr;  // the transport's, from the moment the socket connects
  uint32_t id = 0;
  State state = State::kIdle;
  bool want_write = false;
  bool ever_connected = false;
  protocol::RequestBuffer out;
  size_t out_sent = 0;
  std::string stash;  // an incomplete reply line carried to the next read
  PendingRing pending;
  PendingRing parked{1};  // cluster: drawn for this node, waiting for room
  bool park_full = false;
  ReplyScanner scanner;
  ClientState* client;
  uint16_t node;
  RetryState retry;
  int64_t retry_at_ns = 0;
  // Requests this connection may still take before --reconnect-interval reopens it.
  uint64_t reopen_left = kNeverReopen;
  uint64_t rx_unattributed = 0;
  uint32_t unstamped = 0;  // requests at the tail of `pending` whose send time is not set yet
  // Since when the connection has had room for another request (a reply freed a full
  // pipeline): a request due earlier waited for the server, not for the generator.
  int64_t room_since_ns = 0;
  bool flush_queued = false;
};

inline bool Worker::Drained(Conn& c, int64_t now) {
  rescan_ = true;
  // Unless the client is done: memtier reconnects after the N-th reply but not after the last
  // request (shard_connection.cpp, process_response).
  if (c.reopen_left > 0 || stopping_ || !MoreToIssue(*c.client, now)) return false;
  Reopen(c, now);
  return true;
}

}  // namespace dfbench::loadgen
