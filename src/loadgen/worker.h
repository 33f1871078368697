// One load-generating thread: its own event loop (epoll, through its transport), connections,
// counters and histograms. Nothing is shared on the hot path; the coordinator reads a few
// relaxed atomics for the progress line and takes finished seconds from the mailbox.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "loadgen/client_staircase.h"
#include "loadgen/client_tally.h"
#include "loadgen/config.h"
#include "loadgen/meter.h"
#include "loadgen/pacer.h"
#include "loadgen/pending.h"
#include "loadgen/reconnect_backoff.h"
#include "loadgen/router.h"
#include "loadgen/stats.h"
#include "loadgen/stream.h"
#include "loadgen/transport.h"
#include "loadgen/workload.h"
#include "protocol/tls.h"

namespace dfbench::loadgen {

// kEnvironment when the name does not resolve in `family` (getaddrinfo's ai_family).
core::Result<Target> ResolveTarget(const std::string& host, int port, int family);
// A Unix domain socket's path; kUsage when it does not fit sockaddr_un.
core::Result<Target> UnixTarget(const std::string& path);

class Worker {
 public:
  // One server (`cluster` null), or a cluster's primaries: `targets[i]` is `cluster->nodes[i]`.
  // `tls`: every connection's sessions start from it (null: plain TCP or Unix socket).
  // `transport`: null for sockets and epoll; else one that outlives the worker (a test's fake).
  Worker(const Config& config, const Workload& workload, const std::vector<Target>& targets,
         const SlotMap* cluster, const protocol::TlsContext* tls, int index, uint64_t random_base,
         Transport* transport = nullptr);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Phase 1 (on the worker thread): opens every connection and authenticates. Returns when
  // all are ready or failed.
  void Connect();
  // Phase 2: runs the load until done, the test time ends, or an interrupt.
  void Run(const RunTimes& times);

  ThreadStats& stats() { return meter_.stats(); }
  SeriesMailbox& mailbox() { return meter_.mailbox(); }
  // Connections that came up in Connect(); the rest failed (see first_error()).
  int connected() const { return connected_; }
  const std::string& first_error() const { return first_error_; }
  bool all_connections_lost() const { return all_lost_; }
  // --client-stats: each client's figures, in the order of its clients (empty: not kept).
  const std::vector<ClientTally>& client_tallies() const { return tallies_; }

  // Progress, for the coordinator (relaxed; approximate while running).
  std::atomic<uint64_t> progress_ops{0};
  std::atomic<uint64_t> progress_errors{0};
  std::atomic<bool> finished{false};

 private:
  struct Conn;
  struct ClientState;

  void AddConn(ClientState& client, uint16_t node);
  void StartConnect(Conn& c, int64_t now);
  // The socket is connected, with `stream` (the transport's): the TLS handshake, if any, then
  // OnConnected.
  void OnTransportUp(Conn& c, Stream* stream, int64_t now);
  void ContinueHandshake(Conn& c, int64_t now);
  void OnConnected(Conn& c, int64_t now);
  // What a read or write of the connection's stream comes to: bytes moved (> 0), 0 when it
  // must wait (a write asks for the writable event), -1 when the connection is gone (Lost()
  // was called).
  ssize_t Moved(Conn& c, const Io& io);
  void ConnectFailed(Conn& c, int64_t now, const std::string& why);
  void Lost(Conn& c, int64_t now, const std::string& why);
  // --reconnect-interval: the connection took its requests and has every reply; it is closed
  // and connected again.
  void Reopen(Conn& c, int64_t now);
  // Every request of the connection is answered: completion is checked soon, and the connection
  // reopened if its interval is up (then true: its stream is gone). Inline: after most reads.
  bool Drained(Conn& c, int64_t now);
  void HandleEvent(Conn& c, uint32_t events);
  // What a connect or an event while connecting came to.
  void OnDialed(Conn& c, const Transport::Dialed& dialed, int64_t now);
  void ReadReplies(Conn& c);
  // A setup command (AUTH, HELLO, SELECT) was refused: the connection is given up for good.
  void SetupRefused(Conn& c, int64_t now, const std::string& error);
  // A connection has room or came up: its parked requests go out, then its client draws more.
  void Refill(Conn& c, int64_t now);
  // A client draws while it may and has room: straight onto its one connection (one server),
  // or each request to its node's connection as the router says (a cluster). Chosen once, at
  // construction, so the one-server loop pays nothing for routing.
  void Issue(ClientState& client, int64_t now) { (this->*issue_)(client, now); }
  void IssueDirect(ClientState& client, int64_t now);
  void IssueRouted(ClientState& client, int64_t now);
  void QueueFlush(Conn& c);
  void Flush(Conn& c);
  void FlushQueued();
  void SetWantWrite(Conn& c, bool want);
  bool MoreToIssue(const ClientState& client, int64_t now) const;
  bool CanIssue(const ClientState& client) const;
  bool Done(const Conn& c, int64_t now) const;
  Pending Stamp(int64_t origin, int64_t now, const Request& request) const;
  // Each request goes to the connection of the node the router names; a connection without
  // room parks it (only in a cluster: one server's client draws only when there is room); a
  // full park stops the client drawing.
  void Route(Conn& to, const Pending& p);
  void Send(Conn& c, const Pending& p);
  // Cluster mode (worker_routing.cc): parks, and the connection work of redirections.
  void Park(Conn& c, const Pending& p);
  void MoveParked(Conn& c);
  void DropParked(Conn& c, bool count_unanswered);
  void OnRedirect(Conn& from, Pending p, const Redirect& redirect, int64_t now);
  // Router::OpenNode: connections to a node first named by a redirection.
  bool OpenNode(const ClusterNode& node, uint16_t index, int64_t now);
  // Run's steps: whether to stop (an interrupt, the end of a timed run: `drain_deadline` set),
  // the second's rollover and the staircase's clients that join; the connections' upkeep
  // (reconnects, timeouts, open-loop requests that fell due) and what it found; what was left
  // unanswered or unsent at the end, and the sockets closed.
  void CheckClock(int64_t now, int64_t* drain_deadline);
  struct Upkeep {
    bool all_done = false;     // every connection is done
    int64_t wake = INT64_MAX;  // the next due time or retry, INT64_MAX if none
    bool any_alive = true;
    // Some connection cannot go on before a reply is read (a due request waits for room, the
    // run drains, a handshake or a slow write is under way), so the wait must end at the first
    // reply rather than at `wake`.
    bool replies_awaited = true;
    bool in_flight = false;  // some request awaits its reply
  };
  Upkeep KeepConnections(int64_t now);
  // Every client's pacer on times_, a staircase's late ones from when they join; the clients
  // taking part from the start counted.
  void StartPacers();
  // The client staircase: the clients whose time came start connecting; the time the next
  // one joins, INT64_MAX when none is left.
  int64_t JoinDueClients(int64_t now);
  void CountLeftovers();

  std::unique_ptr<Transport> own_transport_;  // sockets and epoll, unless a test passed one
  Transport& transport_;
  const LoopClock clock_;  // transport_'s
  const Config& config_;
  const Workload& workload_;
  std::vector<Target> targets_;   // per node
  const StreamKind stream_kind_;  // every connection's, but stamps on Unix sockets
  const bool defer_reads_;        // Config::RepliesStampedByKernel()
  Router router_;                 // one server, or this worker's view of the cluster's slots
  void (Worker::*issue_)(ClientState& client, int64_t now);  // IssueDirect or IssueRouted
  const int index_;
  const int64_t connect_timeout_ns_;  // --connection-timeout, or kNoDeadlineNs
  const ReconnectBackoff backoff_;
  RunTimes times_;
  std::vector<std::unique_ptr<ClientState>> clients_;
  const ClientStaircase staircase_;
  size_t joined_ = 0;  // clients_[0, joined_) take part; all but a staircase's late ones
  int64_t next_join_ns_ = INT64_MAX;          // when the next late client joins
  std::vector<ClientTally> tallies_;          // --client-stats: per client, else empty
  std::vector<std::unique_ptr<Conn>> conns_;  // the transport's id is the index
  // Redirections read in one scan of a connection's replies, handled after it.
  std::vector<std::pair<Pending, Redirect>> redirected_;
  std::unique_ptr<char[]> read_buf_;
  size_t read_cap_ = 0;
  std::string auth_request_;  // Config::ConnectionSetup(), encoded
  int setup_commands_ = 0;    // how many commands auth_request_ holds
  bool stopping_ = false;     // no new requests (interrupt or time over)
  bool interrupted_ = false;
  bool all_lost_ = false;
  bool rescan_ = false;    // a connection went idle or was lost: check completion soon
  bool batching_ = false;  // Issue() queues connections for FlushQueued() instead of sending
  std::vector<Conn*> flush_queue_;
  int connected_ = 0;
  std::string first_error_;
  // The stall clock: the last read of any reply, the last send of new requests, and the last
  // connection that came up.
  int64_t last_read_ns_ = 0;
  int64_t last_send_ns_ = 0;
  int64_t connected_at_ns_ = 0;
  Meter meter_;
};

}  // namespace dfbench::loadgen
