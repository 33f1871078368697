// A connection's replies: read from its stream, scanned, and each matched to its request in
// order: the setup commands', a cluster's redirections (handled after the scan), and the
// measured ones, which go to the meter.
#include <cstring>
#include <string>

#include "loadgen/clock.h"
#include "loadgen/debug_log.h"
#include "loadgen/worker.h"
#include "loadgen/worker_conn.h"

namespace dfbench::loadgen {

void Worker::ReadReplies(Conn& c) {
  while (true) {
    const size_t carry = c.stash.size();
    if (carry > 0) std::memcpy(read_buf_.get(), c.stash.data(), carry);
    const Io io = c.stream->Read(read_buf_.get() + carry, read_cap_ - carry);
    const ssize_t n = Moved(c, io);
    if (n <= 0) return;
    const int64_t now = clock_.Now();
    last_read_ns_ = now;
    // When the replies arrived: the kernel's stamp, as the read may have been put off.
    const int64_t arrived = io.stamp_ns > 0 ? ArrivedNs(io.stamp_ns, now, RealtimeNowNs()) : now;
    meter_.Advance(now);
    c.rx_unattributed += static_cast<uint64_t>(n);
    meter_.StartRead(c.client->tally);
    bool desync = false;
    bool auth_failed = false;
    std::string auth_error;
    auto on_reply = [&](protocol::ReplyKind kind, std::string_view error_text) {
      if (kind == protocol::ReplyKind::kPush) {  // RESP3 out-of-band data answers no request
        ++meter_.stats().pushes;
        return;
      }
      if (c.pending.empty()) {
        desync = true;
        return;
      }
      if (c.pending.size() >= static_cast<size_t>(config_.load.pipeline)) c.room_since_ns = arrived;
      const Pending p = c.pending.Pop();
      if (p.request.slot == kAuthSlot) {
        if (kind == protocol::ReplyKind::kError) {
          auth_failed = true;
          auth_error = std::string(error_text);
        } else if (c.pending.empty()) {  // the last of the setup commands
          c.state = Conn::State::kReady;
          if (config_.debug) DebugLine(index_, "connection %u: setup successful.", c.id);
        }
        return;
      }
      if (p.request.slot == kAskingSlot) return;  // +OK; the request after it tells
      if (kind == protocol::ReplyKind::kError) {
        if (auto redirect = router_.RedirectOf(error_text)) {
          redirected_.emplace_back(p, std::move(*redirect));
          return;
        }
        // memtier's line for an error reply (client::handle_response).
        if (config_.debug) {
          DebugLine(index_, "server %s handle error response: -%.*s", config_.Where().c_str(),
                    static_cast<int>(error_text.size()), error_text.data());
        }
      }
      if (meter_.Reply(p, arrived, kind, error_text)) c.retry.backoff_ns = 0;
    };
    const std::string_view data(read_buf_.get(), carry + static_cast<size_t>(n));
    // A SCAN walk reads its cursors from the bytes itself (a ready connection's: setup replies
    // come before any SCAN), so the scan below, and every other run, stays as it is.
    ScanCursor* const scan = config_.scan_incremental ? c.client->workload.scan() : nullptr;
    if (scan != nullptr && c.state == Conn::State::kReady) scan->Feed(data.substr(carry));
    const protocol::ScanResult r =
        std::visit([&](auto& scanner) { return scanner.Scan(data, on_reply); }, c.scanner);
    std::string scan_error;
    if (r.status != protocol::ParseStatus::kOk) {
      scan_error = std::visit([](const auto& scanner) { return scanner.error(); }, c.scanner);
    }
    c.rx_unattributed = meter_.Received(c.rx_unattributed);
    if (!scan_error.empty() || desync || auth_failed) redirected_.clear();  // lost with the rest
    if (!scan_error.empty()) return Lost(c, now, "protocol error: " + scan_error);
    if (desync) return Lost(c, now, "reply without a request");
    if (auth_failed) return SetupRefused(c, now, auth_error);
    c.stash.assign(data.data() + r.consumed, data.size() - r.consumed);
    if (scan != nullptr) scan->TakeReplies();
    for (auto& [p, redirect] : redirected_) OnRedirect(c, p, redirect, now);
    redirected_.clear();
    if (c.state == Conn::State::kReady && times_.start_ns > 0) Refill(c, now);
    if (c.pending.empty() && Drained(c, now)) return;
    // A short read drained the socket; a stream with buffers of its own (TLS: a record at a
    // time) goes on until it would block.
    if (!c.stream || (!c.stream->Buffers() && static_cast<size_t>(n) < read_cap_ - carry)) return;
  }
}

void Worker::SetupRefused(Conn& c, int64_t now, const std::string& error) {
  Lost(c, now, "connection setup (AUTH, HELLO or SELECT) refused: " + error);
  c.state = Conn::State::kDead;  // a rejected AUTH would only be rejected again
  DropParked(c, /*count_unanswered=*/true);
}

}  // namespace dfbench::loadgen
