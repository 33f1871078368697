// The requests of one connection that wait for a reply (in flight) or for room (parked), in
// the order they go out.
#pragma once

#include <cstdint>
#include <vector>

#include "loadgen/workload.h"

namespace dfbench::loadgen {

// Requests that are not the workload's: AUTH at connect, ASKING before an ASK resend.
inline constexpr uint16_t kAuthSlot = 0xFFFF;
inline constexpr uint16_t kAskingSlot = 0xFFFE;

// Whether a request belongs to the warm-up or to the measured window (by its origin).
enum class Phase : uint8_t { kWarmup, kMeasured };

struct Pending {
  int64_t origin_ns = 0;  // due time (open loop) or first send time (closed loop)
  int64_t sent_ns = 0;
  Request request;  // request.slot is kAuthSlot / kAskingSlot for control requests
  Phase phase = Phase::kWarmup;
  uint8_t redirects = 0;  // cluster: how often a node sent it elsewhere
  bool asking = false;    // cluster: to be sent after an ASKING (an ASK redirection)

  bool control() const { return request.slot >= kAskingSlot; }
  bool measured() const { return phase == Phase::kMeasured; }
};

// FIFO ring; grows (rarely: an ASKING pair or a redirected request beyond the pipeline).
class PendingRing {
 public:
  explicit PendingRing(size_t capacity) {
    size_t cap = 1;
    while (cap < capacity) cap <<= 1;
    buf_.resize(cap);
    mask_ = cap - 1;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void Push(const Pending& p) {
    if (size_ > mask_) Grow();
    buf_[(head_ + size_) & mask_] = p;
    ++size_;
  }
  Pending Pop() {
    Pending p = buf_[head_];
    head_ = (head_ + 1) & mask_;
    --size_;
    return p;
  }
  const Pending& At(size_t i) const { return buf_[(head_ + i) & mask_]; }
  Pending& At(size_t i) { return buf_[(head_ + i) & mask_]; }
  Pending& Back() { return At(size_ - 1); }
  void Clear() { head_ = size_ = 0; }

 private:
  void Grow() {
    std::vector<Pending> bigger(buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = At(i);
    buf_.swap(bigger);
    head_ = 0;
    mask_ = buf_.size() - 1;
  }
  std::vector<Pending> buf_;
  size_t mask_ = 0;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace dfbench::loadgen
