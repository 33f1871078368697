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
};

// How long a connection may take to come up (connect, TLS handshake, setup commands).
inline constexpr int64_t kConnectTimeoutNs = 10 * kNsPerSec;

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
  int64_t backoff_ns = 0;
  int64_t down_since_ns = 0;  // when the connection was lost; 0 while connected
  int64_t retry_at_ns = 0;
  uint64_t rx_unattributed = 0;
  uint32_t unstamped = 0;  // requests at the tail of `pending` whose send time is not set yet
  // Since when the connection has had room for another request (a reply freed a full
  // pipeline): a request due earlier waited for the server, not for the generator.
  int64_t room_since_ns = 0;
  bool flush_queued = false;
};

}  // namespace dfbench::loadgen
