// A worker's connections over their lives: connected (a non-blocking connect, then the stream's
// handshake and the setup commands), lost (its requests counted as lost, then a reconnect
// after a backoff, or given up: ReconnectBackoff), reopened after --reconnect-interval requests,
// and each of the transport's events dispatched to a read or a write.
#include <sys/epoll.h>

#include <optional>

#include "loadgen/clock.h"
#include "loadgen/debug_log.h"
#include "loadgen/worker.h"
#include "loadgen/worker_conn.h"

namespace dfbench::loadgen {

void Worker::StartConnect(Conn& c, int64_t now) {
  if (config_.debug) {
    DebugLine(index_, "connection %u: connecting to %s (node %u)", c.id, config_.Where().c_str(),
              c.node);
  }
  const Transport::Dialed dialed = transport_.Dial(c.id, targets_[c.node], stream_kind_);
  c.want_write = true;                        // a connect is watched for both events
  c.retry_at_ns = now + connect_timeout_ns_;  // deadline of the connect and TLS handshake
  OnDialed(c, dialed, now);
}

void Worker::OnDialed(Conn& c, const Transport::Dialed& dialed, int64_t now) {
  switch (dialed.status) {
    case Transport::Dialed::Status::kUp:
      return OnTransportUp(c, dialed.stream, now);
    case Transport::Dialed::Status::kPending:
      c.state = Conn::State::kConnecting;
      return;
    case Transport::Dialed::Status::kFailed:
      return ConnectFailed(c, now, dialed.error);
  }
}

void Worker::OnTransportUp(Conn& c, Stream* stream, int64_t now) {
  c.stream = stream;
  if (!c.stream->NeedsHandshake()) return OnConnected(c, now);
  c.state = Conn::State::kHandshake;
  ContinueHandshake(c, now);
}

void Worker::ContinueHandshake(Conn& c, int64_t now) {
  switch (c.stream->Handshake().status) {
    case Io::Status::kOk:
      ++meter_.stats().tls_handshakes;
      return OnConnected(c, now);
    case Io::Status::kWouldBlock:
      return SetWantWrite(c, false);
    case Io::Status::kWantWrite:
      return SetWantWrite(c, true);
    case Io::Status::kClosed:
      return ConnectFailed(c, now, "TLS handshake failed: the server closed the connection");
    case Io::Status::kFailed:
      return ConnectFailed(c, now, c.stream->error());
  }
}

void Worker::OnConnected(Conn& c, int64_t now) {
  SetWantWrite(c, false);
  if (c.ever_connected) ++meter_.stats().reconnects;
  c.ever_connected = true;
  backoff_.Up(&c.retry);
  c.reopen_left = config_.reconnect_interval > 0 ? config_.reconnect_interval : kNeverReopen;
  connected_at_ns_ = now;
  if (config_.debug) DebugLine(index_, "connection %u: connected", c.id);
  if (!auth_request_.empty()) {
    if (config_.debug) {
      // Names only: AUTH's and HELLO's arguments hold the password.
      for (const auto& command : config_.ConnectionSetup()) {
        DebugLine(index_, "connection %u: sending %s command.", c.id, command.front().c_str());
      }
    }
    c.out.append(auth_request_);
    for (int i = 0; i < setup_commands_; ++i) {
      c.pending.Push(Pending{.origin_ns = now, .sent_ns = now, .request = {.slot = kAuthSlot}});
    }
    c.state = Conn::State::kAuth;
    Flush(c);
    return;
  }
  c.state = Conn::State::kReady;
  if (times_.start_ns > 0) Refill(c, now);
}

void Worker::ConnectFailed(Conn& c, int64_t now, const std::string& why) {
  if (first_error_.empty()) first_error_ = why;
  Lost(c, now, why);
}

void Worker::Lost(Conn& c, int64_t now, const std::string& why) {
  if (first_error_.empty()) first_error_ = why;
  if (config_.debug) DebugLine(index_, "connection %u: error: %s", c.id, why.c_str());
  ++meter_.stats().connection_errors;
  if (times_.start_ns > 0 && !stopping_) meter_.Cut(now, "a connection was lost (" + why + ")");
  for (size_t i = 0; i < c.pending.size(); ++i) meter_.Lost(c.pending.At(i));
  rescan_ = true;
  c.Close(transport_);
  // The SCAN in flight went with the connection: the next connection starts a new walk.
  if (ScanCursor* scan = c.client->workload.scan()) scan->Reset();
  const std::optional<int64_t> wait = config_.reconnect == ReconnectPolicy::kOn && !interrupted_
                                          ? backoff_.Next(&c.retry, now)
                                          : std::nullopt;
  if (wait) {
    c.retry_at_ns = now + *wait;
    c.state = Conn::State::kBackoff;
  } else {
    c.state = Conn::State::kDead;
    DropParked(c, /*count_unanswered=*/true);
  }
}

void Worker::Reopen(Conn& c, int64_t now) {
  // Every request it was given is answered, so nothing is lost; memtier reconnects at once too
  // (shard_connection.cpp, process_response), and counts no connection error.
  c.Close(transport_);
  StartConnect(c, now);
}

void Worker::SetWantWrite(Conn& c, bool want) {
  if (c.want_write == want || c.stream == nullptr) return;
  transport_.WatchWrites(c.id, want);
  c.want_write = want;
}

void Worker::HandleEvent(Conn& c, uint32_t events) {
  if (c.state == Conn::State::kConnecting) {
    return OnDialed(c, transport_.Connected(c.id, events), clock_.Now());
  }
  if (c.state == Conn::State::kHandshake) return ContinueHandshake(c, clock_.Now());
  if (c.stream == nullptr) return;
  // A stream with buffers of its own (TLS) may have a read waiting on a writable socket (a
  // record it must send first), or a write waiting on a read (a record it must take in first).
  const bool any_event = c.stream->Buffers();
  if ((events & (EPOLLIN | EPOLLERR | EPOLLHUP)) || any_event) {
    ReadReplies(c);
    if (c.stream == nullptr) return;
  }
  if ((events & EPOLLOUT || any_event) && c.out_sent < c.out.size()) Flush(c);
}

ssize_t Worker::Moved(Conn& c, const Io& io) {
  switch (io.status) {
    case Io::Status::kOk:
      return static_cast<ssize_t>(io.bytes);
    case Io::Status::kWouldBlock:
      return 0;  // the next readable event reads and flushes again (HandleEvent)
    case Io::Status::kWantWrite:
      SetWantWrite(c, true);
      return 0;
    case Io::Status::kClosed:
      Lost(c, clock_.Now(), "connection closed by the server");
      return -1;
    case Io::Status::kFailed:
      break;
  }
  const std::string why = c.stream->error();  // Lost() closes the stream
  Lost(c, clock_.Now(), why);
  return -1;
}

}  // namespace dfbench::loadgen
