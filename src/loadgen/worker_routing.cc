// Cluster mode's connection work: requests parked per node while its connection is full, and
// resent where the router says a node's MOVED or ASK reply sends them. Every request is answered
// once or counted as unanswered: a redirection is not a reply, and the resend keeps the
// request's origin.
#include "core/check.h"
#include "loadgen/worker.h"
#include "loadgen/worker_conn.h"

namespace dfbench::loadgen {

void Worker::Park(Conn& c, const Pending& p) {
  c.parked.Push(p);
  if (!c.park_full && c.parked.size() >= static_cast<size_t>(config_.load.pipeline)) {
    c.park_full = true;
    ++c.client->full_parks;
  }
}

void Worker::MoveParked(Conn& c) {
  if (c.state != Conn::State::kReady || stopping_) return;
  const size_t cap = static_cast<size_t>(config_.load.pipeline);
  while (!c.parked.empty() && c.pending.size() < cap) Send(c, c.parked.Pop());
  if (c.park_full && c.parked.size() < cap) {
    c.park_full = false;
    --c.client->full_parks;
  }
  QueueFlush(c);
}

void Worker::DropParked(Conn& c, bool count_unanswered) {
  while (!c.parked.empty()) {
    const Pending p = c.parked.Pop();
    // A redirected request was sent once: it is owed a reply either way.
    const bool owed = count_unanswered || p.redirects > 0;
    if (owed && p.measured()) meter_.Unanswered();
  }
  if (c.park_full) {
    c.park_full = false;
    --c.client->full_parks;
  }
  rescan_ = true;  // the client may draw again
}

void Worker::OnRedirect(Conn& from, Pending p, const Redirect& redirect, int64_t now) {
  const Router::Step step = router_.Follow(
      redirect, from.node, ++p.redirects,
      [&](const ClusterNode& node, uint16_t index) { return OpenNode(node, index, now); });
  if (step.kind == Router::Step::Kind::kGiveUp) {
    meter_.Reply(p, now, protocol::ReplyKind::kError, step.error);
    return;
  }
  const bool moved = step.kind == Router::Step::Kind::kMoved;
  p.asking = !moved;  // after an ASKING, as the slot is moving
  meter_.Redirected(p, moved);
  Route(*conns_[from.client->node_conns[step.node]], p);
}

// A node first named by a redirection (a primary added while running) gets a connection from
// every client of this worker.
bool Worker::OpenNode(const ClusterNode& node, uint16_t index, int64_t now) {
  auto target = ResolveTarget(node.host, node.port, config_.AiFamily());
  if (!target) return false;
  DFB_CHECK(index == targets_.size());  // targets_ is per node
  targets_.push_back(*target);
  for (auto& client : clients_) {
    AddConn(*client, index);
    StartConnect(*conns_.back(), now);
  }
  return true;
}

}  // namespace dfbench::loadgen
