// Requests on their way out: drawn when the pacer says one may go and the client has room,
// sent to the connection of the node the router names (or parked there while it is full),
// written into the connection's buffer, and flushed (at once, or batched after a round of
// reads so the server wakes once for them), each timed when the kernel takes it.
#include <algorithm>

#include "loadgen/clock.h"
#include "loadgen/worker.h"
#include "loadgen/worker_conn.h"

namespace dfbench::loadgen {
namespace {

constexpr std::string_view kAskingCommand = "*1\r\n$6\r\nASKING\r\n";

}  // namespace

bool Worker::MoreToIssue(const ClientState& client, int64_t now) const {
  return !interrupted_ && client.pacer.More(now);
}

bool Worker::CanIssue(const ClientState& client) const {
  // A cluster's key picks the connection after the draw: only a full park holds draws back.
  if (issue_ == &Worker::IssueRouted) return client.full_parks == 0;
  // One server: its connection must have room, so a request is never parked; nor may it take
  // more than --reconnect-interval leaves it.
  const Conn& c = *conns_[client.node_conns[0]];
  return c.pending.size() < static_cast<size_t>(config_.load.pipeline) && c.reopen_left > 0;
}

Pending Worker::Stamp(int64_t origin, int64_t now, const Request& request) const {
  const bool measured = origin >= times_.measured_start_ns;
  return Pending{.origin_ns = origin,
                 .sent_ns = now,
                 .request = request,
                 .phase = measured ? Phase::kMeasured : Phase::kWarmup};
}

void Worker::Refill(Conn& c, int64_t now) {
  MoveParked(c);
  Issue(*c.client, now);
}

void Worker::IssueDirect(ClientState& client, int64_t now) {
  Conn& c = *conns_[client.node_conns[0]];
  // CanIssue's one-server rule, without asking which path this is on every request: the
  // pipeline's room, within what --reconnect-interval leaves (memtier: client.cpp,
  // hold_pipeline), counted once per call.
  const size_t before = c.pending.size();
  const size_t cap = static_cast<size_t>(
      std::min<uint64_t>(static_cast<uint64_t>(config_.load.pipeline), before + c.reopen_left));
  while (c.pending.size() < cap && MoreToIssue(client, now)) {
    const std::optional<int64_t> origin = client.pacer.Take(now);
    if (!origin) break;
    const Pending p = Stamp(*origin, now, client.workload.Draw());
    if (p.measured()) client.pacer.Issued();
    Send(c, p);
  }
  c.reopen_left -= c.pending.size() - before;
  QueueFlush(c);
}

void Worker::IssueRouted(ClientState& client, int64_t now) {
  while (CanIssue(client) && MoreToIssue(client, now)) {
    const std::optional<int64_t> origin = client.pacer.Take(now);
    if (!origin) break;
    const Pending p = Stamp(*origin, now, client.workload.Draw());
    if (p.measured()) client.pacer.Issued();
    const uint16_t node = router_.NodeOf([&] { return client.workload.Key(p.request); });
    Route(*conns_[client.node_conns[node]], p);
  }
}

void Worker::Route(Conn& to, const Pending& p) {
  if (to.state == Conn::State::kDead) {
    if (p.measured()) meter_.Unanswered();
    return;
  }
  // While the run drains, a request that fell due before the end still goes out when its
  // connection has room; what is parked stays parked.
  const bool room = to.pending.size() < static_cast<size_t>(config_.load.pipeline);
  if (to.state == Conn::State::kReady && to.parked.empty() && room) {
    Send(to, p);
    QueueFlush(to);
    return;
  }
  Park(to, p);
}

void Worker::Send(Conn& c, const Pending& p) {
  const size_t before = c.out.size();
  if (p.asking) {
    c.out.append(kAskingCommand);
    c.pending.Push(Pending{.request = {.slot = kAskingSlot}});
    ++c.unstamped;
  }
  c.client->workload.Encode(p.request, &c.out);
  if (p.measured()) meter_.Sent(p.request.slot, c.out.size() - before, c.client->tally);
  // Pushed as it is and mended in place: a copy changed before the push costs a stalled load.
  c.pending.Push(p);
  if (p.asking) c.pending.Back().asking = false;
  ++c.unstamped;
}

void Worker::QueueFlush(Conn& c) {
  if (c.out_sent >= c.out.size() || c.want_write) return;
  if (!batching_) return Flush(c);
  if (!c.flush_queued) {
    c.flush_queued = true;
    flush_queue_.push_back(&c);
  }
}

void Worker::FlushQueued() {
  for (Conn* c : flush_queue_) {
    c->flush_queued = false;
    if (c->stream != nullptr && c->out_sent < c->out.size() && !c->want_write) Flush(*c);
  }
  flush_queue_.clear();
}

void Worker::Flush(Conn& c) {
  if (c.unstamped > 0) {
    // Requests are timed from the moment they are handed to the kernel.
    const int64_t now = clock_.Now();
    last_send_ns_ = now;
    const Pacer& pacer = c.client->pacer;
    for (size_t i = c.pending.size() - c.unstamped; i < c.pending.size(); ++i) {
      Pending& p = c.pending.At(i);
      p.sent_ns = now;
      // A redirected request keeps its first origin: the detour is part of its latency.
      if (p.redirects > 0 || p.control()) continue;
      const std::optional<int64_t> lag = pacer.Sent(&p.origin_ns, now, c.room_since_ns);
      if (lag && p.measured()) meter_.SendLag(*lag);
    }
    c.unstamped = 0;
  }
  while (c.out_sent < c.out.size()) {
    const ssize_t n =
        Moved(c, c.stream->Write(c.out.data() + c.out_sent, c.out.size() - c.out_sent));
    if (n <= 0) return;
    c.out_sent += static_cast<size_t>(n);
  }
  c.out.clear();
  c.out_sent = 0;
  SetWantWrite(c, false);
}

}  // namespace dfbench::loadgen
