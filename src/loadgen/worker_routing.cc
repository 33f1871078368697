// Cluster mode: requests routed by hash slot, parked per node, and resent where a node's
// MOVED or ASK reply sends them. Every request is answered once or counted as unanswered:
// a redirection is not a reply, and the resend keeps the request's origin.
#include <algorithm>

#include "loadgen/worker.h"
#include "loadgen/worker_conn.h"
#include "protocol/resp_encoder.h"

namespace dfbench::loadgen {
namespace {

// A request sent on more often than this is answered with an error: the cluster keeps
// pointing elsewhere (a slot moving back and forth, or a misconfigured node).
constexpr uint8_t kMaxRedirects = 5;
constexpr std::string_view kAskingCommand = "*1\r\n$6\r\nASKING\r\n";

}  // namespace

void Worker::IssueRouted(ClientState& client, int64_t now) {
  while (client.full_parks == 0 && MoreToIssue(client, now)) {
    const std::optional<int64_t> origin = client.pacer.Take(now);
    if (!origin) break;
    const Pending p = Stamp(*origin, now, client.workload.Draw());
    if (p.measured()) client.pacer.Issued();
    const uint16_t node = slot_map_.owner[HashSlot(client.workload.Key(p.request))];
    Route(*conns_[client.node_conns[node]], p);
  }
}

void Worker::Route(Conn& to, const Pending& p) {
  if (to.state == Conn::State::kDead) {
    if (p.measured()) meter_.Unanswered();
    return;
  }
  // While the run drains, a request that fell due before the end still goes out when its
  // connection has room, as it does with one server; what is parked stays parked.
  const bool room = to.pending.size() < static_cast<size_t>(config_.pipeline);
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
  if (p.measured()) meter_.Sent(p.request.slot, c.out.size() - before);
  Pending sent = p;
  sent.asking = false;
  c.pending.Push(sent);
  ++c.unstamped;
}

void Worker::Park(Conn& c, const Pending& p) {
  c.parked.Push(p);
  if (!c.park_full && c.parked.size() >= static_cast<size_t>(config_.pipeline)) {
    c.park_full = true;
    ++c.client->full_parks;
  }
}

void Worker::MoveParked(Conn& c) {
  if (c.state != Conn::State::kReady || stopping_) return;
  const size_t cap = static_cast<size_t>(config_.pipeline);
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
  ClusterNode node = redirect.node;
  if (node.host.empty()) node.host = slot_map_.nodes[from.node].host;  // "MOVED 12 :7001"
  const auto index = NodeIndex(node, now);
  if (++p.redirects > kMaxRedirects || !index) {
    const std::string why = index ? "too many redirections (last: " : "unreachable node (";
    meter_.Reply(p, now, protocol::ReplyKind::kError,
                 why + node.host + ":" + std::to_string(node.port) + ")");
    return;
  }
  const bool moved = redirect.kind == Redirect::Kind::kMoved;
  if (moved) {
    slot_map_.owner[redirect.slot] = *index;
  } else {
    p.asking = true;  // the slot is moving: this request only, the map stays
  }
  meter_.Redirected(p, moved);
  Route(*conns_[from.client->node_conns[*index]], p);
}

// A node first named by a redirection (a primary added while running) gets a connection from
// every client of this worker.
std::optional<uint16_t> Worker::NodeIndex(const ClusterNode& node, int64_t now) {
  const auto known = std::find(slot_map_.nodes.begin(), slot_map_.nodes.end(), node);
  if (known != slot_map_.nodes.end()) {
    return static_cast<uint16_t>(known - slot_map_.nodes.begin());
  }
  auto target = ResolveTarget(node.host, node.port);
  if (!target) return std::nullopt;
  const uint16_t index = slot_map_.IndexOf(node);
  targets_.push_back(*target);
  for (auto& client : clients_) {
    AddConn(*client, index);
    StartConnect(*conns_.back(), now);
  }
  return index;
}

}  // namespace dfbench::loadgen
