// What one worker measures, given every time it needs (no clock of its own, so tests pin exact
// values): each measured reply's latency from its origin and, in the open loop, from its send;
// errors and the first few texts; GET hits and misses; bytes per command; requests lost with
// their connection; how late the generator sent; when and why the load was cut. The figures go
// into one block per second of the measured window, handed to the coordinator through the
// mailbox as each second ends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "loadgen/client_tally.h"
#include "loadgen/clock.h"
#include "loadgen/pending.h"
#include "loadgen/stats.h"
#include "loadgen/workload.h"
#include "protocol/resp_parser.h"

namespace dfbench::loadgen {

class Meter {
 public:
  // `error_replies_are_ops`: an error reply counts as its command's operation too, latency and
  // all (memtier's way, client::handle_response); else it is only an error.
  Meter(const Workload& workload, bool open_loop, bool error_replies_are_ops = false);

  // The measured window starts at `measured_start_ns`; its first second begins.
  void Begin(int64_t measured_start_ns);
  // Ends the second(s) before the one `now` falls in (nothing before the window or Begin).
  void Advance(int64_t now) {
    if (!block_ || now < measured_start_ns_) return;
    const int64_t second = (now - measured_start_ns_) / kNsPerSec;
    if (second > block_->second) Rollover(second);
  }
  // Posts the last second; the coordinator then has every block.
  void Finish(int64_t stopped_ns);

  // A reply to `p`, read at `arrived`. True for a measured success (the connection works).
  bool Reply(const Pending& p, int64_t arrived, protocol::ReplyKind kind,
             std::string_view error_text) {
    if (!p.measured()) {
      if (kind != protocol::ReplyKind::kError) ++stats_.warmup_count;
      return false;
    }
    SecondBlock::PerSlot& b = block_->slots[p.request.slot];
    ++replies_in_read_[p.request.slot];
    const bool get = is_get_[p.request.slot];
    if (kind == protocol::ReplyKind::kError) {
      ++b.counters.errors;
      ++errors_;
      Sample(error_text);
      // memtier counts a GET's error reply as a miss (no hits in it).
      if (error_replies_are_ops_) Record(p, arrived, b, get ? kMiss : kNeither);
      return false;
    }
    Record(p, arrived, b, !get ? kNeither : kind == protocol::ReplyKind::kNull ? kMiss : kHit);
    ++ok_;
    return true;
  }
  // `bytes` of a measured request of `slot` went out, from the client `tally` keeps (null: no
  // per-client figures).
  void Sent(uint32_t slot, size_t bytes, ClientTally* tally = nullptr) {
    block_->slots[slot].counters.bytes_tx += bytes;
    if (tally != nullptr) tally->At(block_->second, slot).bytes_tx += bytes;
  }
  // Open loop: a measured request left `lag_ns` after it could have (Flush).
  void SendLag(int64_t lag_ns) {
    stats_.send_lag.Record(static_cast<uint64_t>(std::max<int64_t>(0, lag_ns)));
  }
  // A read of a connection of the client `tally` keeps (null: no per-client figures) begins:
  // the replies it completes share its bytes (Received), and go to that client.
  void StartRead(ClientTally* tally = nullptr) {
    std::fill(replies_in_read_.begin(), replies_in_read_.end(), 0);
    reading_ = tally;
  }
  // `bytes` read and not yet given to a command go to the commands whose replies completed in
  // this read, in proportion; the bytes still unattributed (all of them when none completed).
  uint64_t Received(uint64_t bytes);
  // A measured request sent and never to be answered: an error of its command.
  void Lost(const Pending& p);
  // A measured request that was due (or drawn and owed a reply) and never sent.
  void Unanswered(uint64_t n = 1) { stats_.unanswered += n; }
  // A cluster's redirection of `p` (MOVED or ASK), answered by a resend.
  void Redirected(const Pending& p, bool moved) {
    if (!p.measured()) return;
    SlotCounters& c = block_->slots[p.request.slot].counters;
    ++(moved ? c.moved : c.ask);
    if (reading_ != nullptr) {
      SlotCounters& mine = reading_->At(block_->second, p.request.slot);
      ++(moved ? mine.moved : mine.ask);
    }
  }
  // The worker's clients taking part now (the client staircase): this second's count.
  void ClientsTakingPart(uint32_t clients) {
    clients_ = clients;
    if (block_) block_->clients = clients;
  }
  // The first cut of the load after it started: when and why; later ones are the same story.
  void Cut(int64_t now, const std::string& why);

  uint64_t ok() const { return ok_; }
  uint64_t errors() const { return errors_; }
  ThreadStats& stats() { return stats_; }
  SeriesMailbox& mailbox() { return mailbox_; }

 private:
  enum Found : uint8_t { kNeither, kHit, kMiss };  // what a GET's reply found
  // A reply that counts as an operation: its count, latency and, for a GET, hit or miss; and
  // the same for its client when the clients' figures are kept.
  void Record(const Pending& p, int64_t arrived, SecondBlock::PerSlot& b, Found found) {
    // A kernel stamp read across the clocks' distance may land a hair before the send.
    const int64_t now = std::max(arrived, p.sent_ns);
    const uint64_t latency = static_cast<uint64_t>(now - p.origin_ns);
    ++b.counters.count;
    b.counters.latency_sum_ns += static_cast<double>(latency);
    b.counters.hits += found == kHit;
    b.counters.misses += found == kMiss;
    b.latency.Record(latency);
    if (reading_ != nullptr) ClientOp(p.request.slot, latency, found);
    if (open_loop_)
      stats_.uncorrected[p.request.slot].Record(static_cast<uint64_t>(now - p.sent_ns));
    stats_.last_reply_ns = now;
  }
  void ClientOp(uint32_t slot, uint64_t latency, Found found);
  void Rollover(int64_t second);
  void Sample(std::string_view error_text);

  const size_t slots_;
  const bool open_loop_;
  const bool error_replies_are_ops_;
  std::vector<bool> is_get_;  // per slot: GET replies count hits and misses
  int64_t measured_start_ns_ = 0;
  std::vector<uint32_t> replies_in_read_;  // per slot, for Received
  ClientTally* reading_ = nullptr;         // the client whose replies are being read, if kept
  ThreadStats stats_;
  SeriesMailbox mailbox_;
  std::unique_ptr<SecondBlock> block_;
  uint64_t ok_ = 0;
  uint64_t errors_ = 0;
  uint32_t clients_ = 0;  // ClientsTakingPart's, carried into each new second
};

}  // namespace dfbench::loadgen
