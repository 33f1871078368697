#include "loadgen/worker.h"

#include <netdb.h>
#include <sys/epoll.h>
#include <sys/prctl.h>

#include <algorithm>
#include <cstring>

#include "core/interrupt.h"
#include "core/text.h"
#include "loadgen/clock.h"
#include "loadgen/conn_start_jitter.h"
#include "loadgen/epoll_transport.h"
#include "loadgen/worker_conn.h"
#include "protocol/resp_encoder.h"
#include "protocol/unix_socket.h"

namespace dfbench::loadgen {
namespace {

constexpr int kMaxEvents = 256;
// Requests in flight and no reply for this long: the server stopped answering (a stopped
// process keeps its sockets open), so the run stops instead of waiting forever.
constexpr int64_t kStallNs = 10 * kNsPerSec;
// After the test time ends, in-flight replies get this long to arrive.
constexpr int64_t kDrainNs = 2 * kNsPerSec;
constexpr int64_t kInterruptDrainNs = 200 * kNsPerMs;
// The loop wakes at least this often to notice interrupts and roll the time series over.
constexpr int64_t kMaxSleepNs = 100 * kNsPerMs;
constexpr unsigned long kTimerSlackNs = 1000;

}  // namespace

core::Result<Target> ResolveTarget(const std::string& host, int port, int family) {
  addrinfo hints{};
  hints.ai_family = family;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string port_text = std::to_string(port);
  const int rc = getaddrinfo(host.c_str(), port_text.c_str(), &hints, &res);
  if (rc != 0 || res == nullptr) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      // The host may be anyone's text (--server): shown on one line.
                      "cannot resolve server '" + core::Printable(host) + "': " + gai_strerror(rc));
  }
  Target t;
  std::memcpy(&t.addr, res->ai_addr, res->ai_addrlen);
  t.addr_len = res->ai_addrlen;
  freeaddrinfo(res);
  return t;
}

core::Result<Target> UnixTarget(const std::string& path) {
  auto addr = protocol::UnixSocketAddress(path);
  if (!addr) return tl::unexpected(core::WithContext(addr.error(), "--unix-socket"));
  Target t;
  std::memcpy(&t.addr, &*addr, sizeof(*addr));
  t.addr_len = sizeof(*addr);
  return t;
}

Worker::Worker(const Config& config, const Workload& workload, const std::vector<Target>& targets,
               const SlotMap* cluster, const protocol::TlsContext* tls, int index,
               uint64_t random_base, Transport* transport)
    : own_transport_(transport == nullptr ? std::make_unique<EpollTransport>() : nullptr),
      transport_(transport == nullptr ? *own_transport_ : *transport),
      clock_(transport_.Clock()),
      config_(config),
      workload_(workload),
      targets_(targets),
      stream_kind_{.tls = tls, .stamped = config.RepliesStampedByKernel()},
      defer_reads_(config.RepliesStampedByKernel()),
      router_(cluster != nullptr ? Router(*cluster) : Router()),
      issue_(cluster != nullptr ? &Worker::IssueRouted : &Worker::IssueDirect),
      index_(index),
      connect_timeout_ns_(config.connection_timeout_s > 0
                              ? static_cast<int64_t>(config.connection_timeout_s) * kNsPerSec
                              : kNoDeadlineNs),
      backoff_(config),
      staircase_(config.Staircase()),
      joined_(staircase_.ClientsAt(0)),
      meter_(workload, config.open_loop(), config.error_replies_are_ops) {
  read_cap_ = 256 * 1024;
  static_assert(256 * 1024 > 2 * protocol::kMaxLineBytes);
  read_buf_ = std::make_unique<char[]>(read_cap_);
  for (const auto& command : config.ConnectionSetup()) {
    std::vector<std::string_view> args(command.begin(), command.end());
    protocol::AppendCommand(&auth_request_, args);
    ++setup_commands_;
  }
  // Kept whole before any client points into it.
  if (!config.client_stats.empty())
    tallies_.assign(config.load.clients, ClientTally(workload.slots.size()));
  for (int i = 0; i < config.load.clients; ++i) {
    const int global = index * config.load.clients + i;
    auto client = std::make_unique<ClientState>(config, workload, global, random_base);
    Pacer::Plan plan{.by_time = config.by_time()};
    if (!config.by_time()) plan.limit = config.RequestsForClient(global);
    if (config.open_loop()) {
      plan.interval_ns = config.ClientIntervalNs();
      // Stagger the clients' schedules so they do not fire in lockstep.
      plan.t0_ns = static_cast<int64_t>(plan.interval_ns * global / config.total_clients());
      plan.grid = ScheduleGrid(config.ScheduleTickNs(), index, config.load.threads);
    }
    client->pacer = Pacer(plan);
    if (!tallies_.empty()) client->tally = &tallies_[static_cast<size_t>(i)];
    for (size_t node = 0; node < targets_.size(); ++node) {
      AddConn(*client, static_cast<uint16_t>(node));
    }
    clients_.push_back(std::move(client));
  }
}

void Worker::AddConn(ClientState& client, uint16_t node) {
  auto c = std::make_unique<Conn>(config_, &client, node);
  c->id = static_cast<uint32_t>(conns_.size());
  c->out.reserve(workload_.max_request_bytes * static_cast<size_t>(config_.load.pipeline + 1) +
                 auth_request_.size());
  client.node_conns.push_back(c->id);
  conns_.push_back(std::move(c));
}

Worker::~Worker() {
  for (auto& c : conns_) c->CloseSocket(transport_);
}

void Worker::Connect() {
  ConnStartJitter jitter(config_, static_cast<uint64_t>(index_) + 1);
  for (size_t i = 0; i < joined_; ++i) {
    if (i > 0 && jitter.enabled()) {
      transport_.SleepUntil(clock_.Now() + static_cast<int64_t>(jitter.NextUs()) * 1000);
    }
    for (uint32_t id : clients_[i]->node_conns) StartConnect(*conns_[id], clock_.Now());
  }
  int64_t now = clock_.Now();
  const int64_t deadline = now + connect_timeout_ns_;
  epoll_event events[kMaxEvents];
  while (true) {
    bool pending = false;
    for (auto& c : conns_) {
      pending = pending || c->state == Conn::State::kConnecting ||
                c->state == Conn::State::kHandshake || c->state == Conn::State::kAuth;
    }
    now = clock_.Now();
    if (!pending || now >= deadline || core::InterruptRequested()) break;
    const int n = transport_.Wait(std::min(50 * kNsPerMs, deadline - now), events, kMaxEvents);
    for (int i = 0; i < n; ++i) HandleEvent(*conns_[events[i].data.u32], events[i].events);
  }
  now = clock_.Now();
  for (auto& c : conns_) {
    if (c->state == Conn::State::kConnecting || c->state == Conn::State::kHandshake ||
        c->state == Conn::State::kAuth) {
      ConnectFailed(
          *c, now,
          c->state == Conn::State::kHandshake ? "TLS handshake timed out" : "connection timed out");
    }
    if (c->state == Conn::State::kReady) ++connected_;
  }
}

bool Worker::Done(const Conn& c, int64_t now) const {
  switch (c.state) {
    case Conn::State::kDead:
      return true;
    case Conn::State::kReady:
      return c.pending.empty() && (c.parked.empty() || stopping_) && c.out_sent >= c.out.size() &&
             !MoreToIssue(*c.client, now);
    default:  // connecting, authenticating or waiting to reconnect
      return stopping_ || (c.parked.empty() && !MoreToIssue(*c.client, now));
  }
}

void Worker::CheckClock(int64_t now, int64_t* drain_deadline) {
  if (!interrupted_ && core::InterruptRequested()) {
    interrupted_ = stopping_ = true;
    *drain_deadline = now + kInterruptDrainNs;
  }
  if (config_.by_time() && !stopping_ && now >= times_.end_ns) {
    stopping_ = true;
    *drain_deadline = now + kDrainNs;
  }
  meter_.Advance(now);
  // After the rollover: a client joining at a second's start counts in that second.
  if (joined_ < clients_.size()) next_join_ns_ = JoinDueClients(now);
}

Worker::Upkeep Worker::KeepConnections(int64_t now) {
  Upkeep u{.all_done = true, .any_alive = false, .replies_awaited = stopping_};
  for (auto& cp : conns_) {
    Conn& c = *cp;
    if (c.state == Conn::State::kBackoff && !stopping_) {
      if (c.retry_at_ns <= now) {
        StartConnect(c, now);
      } else {
        u.wake = std::min(u.wake, c.retry_at_ns);
      }
    } else if (c.state == Conn::State::kConnecting || c.state == Conn::State::kHandshake) {
      if (c.retry_at_ns <= now) {
        ConnectFailed(c, now,
                      c.state == Conn::State::kConnecting ? "connection timed out"
                                                          : "TLS handshake timed out");
      }
      // Woken on time for the connect's deadline, or for the next attempt once it failed.
      if (c.state != Conn::State::kDead) u.wake = std::min(u.wake, c.retry_at_ns);
    }
    // Open loop: requests fell due. Cluster: a park may have drained or been dropped. (A closed
    // loop's single connection was refilled by the reply that made room: this draws nothing.)
    if (c.state == Conn::State::kReady) {
      Refill(c, now);
      const bool more = MoreToIssue(*c.client, now);
      if (more && CanIssue(*c.client)) {
        u.wake = std::min(u.wake, c.client->pacer.NextDue());
      } else if (more && defer_reads_) {
        // Full: the reply that makes room is read at the next due time, or at once if due.
        const int64_t due = c.client->pacer.NextDue();
        u.replies_awaited = u.replies_awaited || due <= now;
        u.wake = std::min(u.wake, due);
      } else if (!c.pending.empty()) {
        u.replies_awaited = true;  // the last replies end the run
      }
    }
    // A socket without stamps is timed by its reads, so they cannot wait.
    u.replies_awaited = u.replies_awaited || c.want_write ||
                        (!c.pending.empty() && !(c.stream && c.stream->Stamped())) ||
                        (c.state != Conn::State::kReady && c.state != Conn::State::kBackoff &&
                         c.state != Conn::State::kDead && c.state != Conn::State::kIdle);
    u.in_flight = u.in_flight || !c.pending.empty();
    u.any_alive = u.any_alive || c.state != Conn::State::kDead;
    u.all_done = u.all_done && Done(c, now);
  }
  return u;
}

int64_t Worker::JoinDueClients(int64_t now) {
  for (; joined_ < clients_.size(); ++joined_) {
    const int64_t joins_at =
        times_.measured_start_ns + staircase_.JoinsAtNs(static_cast<uint32_t>(joined_));
    if (stopping_) return INT64_MAX;
    if (now < joins_at) return joins_at;
    for (uint32_t id : clients_[joined_]->node_conns) StartConnect(*conns_[id], now);
    meter_.ClientsTakingPart(static_cast<uint32_t>(joined_ + 1));
  }
  return INT64_MAX;
}

void Worker::CountLeftovers() {
  const bool open_loop = config_.open_loop();
  for (auto& cp : conns_) {
    Conn& c = *cp;
    // Silent since before the window's end (a stopped server): the load was cut there.
    if (!interrupted_ && config_.by_time() && !c.pending.empty() && last_read_ns_ < times_.end_ns) {
      meter_.Cut(std::max(last_read_ns_, times_.start_ns), "the server stopped answering");
    }
    for (size_t i = 0; i < c.pending.size(); ++i) meter_.Lost(c.pending.At(i));
    // Parked requests never left: in the open loop they were due, so they count as unanswered
    // as unsent due requests do; in the closed loop they are as if never drawn.
    DropParked(c, /*count_unanswered=*/open_loop);
    c.Close(transport_);
  }
  if (!open_loop || !config_.by_time() || interrupted_) return;
  for (auto& client : clients_) meter_.Unanswered(client->pacer.TakeUnsent());
}

void Worker::StartPacers() {
  // A staircase's late client paces its requests from when it joins.
  for (size_t i = 0; i < clients_.size(); ++i) {
    RunTimes own = times_;
    own.start_ns = std::max(
        times_.start_ns, times_.measured_start_ns + staircase_.JoinsAtNs(static_cast<uint32_t>(i)));
    clients_[i]->pacer.Start(own);
  }
  meter_.ClientsTakingPart(static_cast<uint32_t>(joined_));
}

void Worker::Run(const RunTimes& times) {
  times_ = times;
  StartPacers();
  // A tick's requests all wait for its wake-up: the kernel's default timer slack (50 us) would
  // be send lag on every one of them.
  if (config_.open_loop()) prctl(PR_SET_TIMERSLACK, kTimerSlackNs);
  meter_.Begin(times_.measured_start_ns);
  int64_t now = clock_.Now();
  batching_ = true;  // each connection's first requests leave in one write
  for (auto& c : conns_) {
    if (c->state == Conn::State::kReady) Refill(*c, now);
  }
  FlushQueued();
  batching_ = false;
  epoll_event events[kMaxEvents];
  int64_t drain_deadline = 0;
  int64_t next_scan = 0;
  Upkeep upkeep;  // the last scan's
  while (true) {
    now = clock_.Now();
    CheckClock(now, &drain_deadline);
    int64_t wake = std::min(now + kMaxSleepNs, next_join_ns_);
    // Connection upkeep and, in open loop, requests that fell due. Closed loop needs the scan
    // only now and then (reconnects, completion), not on every wake-up.
    batching_ = true;
    if (config_.open_loop() || now >= next_scan || stopping_ || rescan_) {
      next_scan = now + kNsPerMs;
      rescan_ = false;
      upkeep = KeepConnections(now);
      wake = std::min(wake, upkeep.wake);
      FlushQueued();
      if (upkeep.all_done) break;
    }
    batching_ = false;
    // Waited on since the last reply or send, whichever is later: a slow open loop's request
    // sent long after the previous reply has waited only since it left.
    if (const int64_t heard =
            std::max({last_read_ns_, last_send_ns_, connected_at_ns_, times_.start_ns});
        upkeep.in_flight && !stopping_ && now - heard > kStallNs) {
      meter_.Cut(heard, "the server stopped answering (no reply for 10 s)");
      stopping_ = true;
      break;
    }
    if (drain_deadline > 0 && now >= drain_deadline) break;
    if (config_.by_time() && !stopping_) wake = std::min(wake, times_.end_ns);
    if (drain_deadline > 0) wake = std::min(wake, drain_deadline);
    // Read every ready connection first, then send all their next requests back to back:
    // the server wakes once for the batch instead of once per connection.
    batching_ = true;
    if (defer_reads_ && !upkeep.replies_awaited) {
      // The replies due by then wait in the socket buffers, stamped on arrival: one wake-up per
      // tick instead of one per reply. Every connection is up with nothing left to write, so
      // the ones with requests in flight are all there is to read.
      transport_.SleepUntil(wake);
      for (auto& c : conns_) {
        if (c->state == Conn::State::kReady && !c->pending.empty()) ReadReplies(*c);
      }
    } else {
      const int n = transport_.Wait(std::max<int64_t>(0, wake - now), events, kMaxEvents);
      for (int i = 0; i < n; ++i) HandleEvent(*conns_[events[i].data.u32], events[i].events);
    }
    FlushQueued();
    batching_ = false;
    progress_ops.store(meter_.ok(), std::memory_order_relaxed);
    progress_errors.store(meter_.errors(), std::memory_order_relaxed);
  }
  all_lost_ = !upkeep.any_alive;
  const int64_t stopped = clock_.Now();
  // Requests still in flight, and (open loop) requests that fell due but were never sent.
  CountLeftovers();
  progress_ops.store(meter_.ok(), std::memory_order_relaxed);
  progress_errors.store(meter_.errors(), std::memory_order_relaxed);
  meter_.Finish(stopped);
  finished.store(true, std::memory_order_release);
}

}  // namespace dfbench::loadgen
