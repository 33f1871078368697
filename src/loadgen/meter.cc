#include "loadgen/meter.h"

namespace dfbench::loadgen {
namespace {

constexpr size_t kMaxErrorSamples = 5;

}  // namespace

Meter::Meter(const Workload& workload, bool open_loop, bool error_replies_are_ops)
    : slots_(workload.slots.size()),
      open_loop_(open_loop),
      error_replies_are_ops_(error_replies_are_ops),
      replies_in_read_(slots_) {
  for (const auto& slot : workload.slots) is_get_.push_back(slot.kind == Slot::Kind::kGet);
  if (open_loop) stats_.uncorrected.resize(slots_);
}

void Meter::Begin(int64_t measured_start_ns) {
  measured_start_ns_ = measured_start_ns;
  block_ = std::make_unique<SecondBlock>();
  block_->slots.resize(slots_);
  block_->clients = clients_;
}

void Meter::Finish(int64_t stopped_ns) {
  stats_.stopped_ns = stopped_ns;
  mailbox_.Post(std::move(block_));
  mailbox_.current_second.store(INT64_MAX, std::memory_order_release);
}

void Meter::ClientOp(uint32_t slot, uint64_t latency, Found found) {
  reading_->Op(block_->second, slot, latency);
  SlotCounters& c = reading_->At(block_->second, slot);
  c.hits += found == kHit;
  c.misses += found == kMiss;
}

void Meter::Rollover(int64_t second) {
  mailbox_.Post(std::move(block_));
  block_ = std::make_unique<SecondBlock>();
  block_->second = second;
  block_->clients = clients_;
  block_->slots.resize(slots_);
  mailbox_.current_second.store(second, std::memory_order_release);
}

uint64_t Meter::Received(uint64_t bytes) {
  uint64_t replies = 0;
  for (uint32_t x : replies_in_read_) replies += x;
  if (replies == 0) return bytes;
  uint64_t left = bytes;
  for (size_t i = 0; i < replies_in_read_.size() && left > 0; ++i) {
    if (replies_in_read_[i] == 0) continue;
    replies -= replies_in_read_[i];
    const uint64_t share =
        replies == 0 ? left : bytes * replies_in_read_[i] / (replies + replies_in_read_[i]);
    block_->slots[i].counters.bytes_rx += share;
    if (reading_ != nullptr)
      reading_->At(block_->second, static_cast<uint32_t>(i)).bytes_rx += share;
    left -= std::min(left, share);
  }
  return 0;
}

void Meter::Lost(const Pending& p) {
  if (p.control() || !p.measured()) return;
  ++stats_.unanswered;
  ++stats_.lost_requests;
  ++errors_;
  if (block_) ++block_->slots[p.request.slot].counters.errors;
}

void Meter::Cut(int64_t now, const std::string& why) {
  if (stats_.cut_ns != 0) return;
  stats_.cut_ns = now;
  stats_.cut_reason = why;
}

void Meter::Sample(std::string_view error_text) {
  auto& samples = stats_.error_samples;
  if (samples.size() < kMaxErrorSamples &&
      std::find(samples.begin(), samples.end(), error_text) == samples.end()) {
    samples.emplace_back(error_text);
  }
}

}  // namespace dfbench::loadgen
