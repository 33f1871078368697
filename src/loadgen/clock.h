// The load generator's clock: nanoseconds of CLOCK_MONOTONIC, as the workers schedule sends and
// the runner measures the test time, so both read the same time (core's monotonic time, which
// core::RealClock() reads too).
#pragma once

#include <time.h>

#include <algorithm>
#include <cstdint>

#include "core/clock.h"

namespace dfbench::loadgen {

inline constexpr int64_t kNsPerSec = 1'000'000'000;
inline constexpr int64_t kNsPerMs = 1'000'000;

inline int64_t NowNs() {
  return core::MonotonicNowNs();
}

// The time a worker's loop reads: NowNs, or in tests a time the test moves (a fake transport's).
// A pointer tested rather than a virtual call: the loop reads the time on every read and flush,
// and the real clock's call stays inline.
class LoopClock {
 public:
  LoopClock() = default;
  explicit LoopClock(const int64_t* fake_now) : fake_now_(fake_now) {}
  int64_t Now() const { return fake_now_ == nullptr ? NowNs() : *fake_now_; }

 private:
  const int64_t* fake_now_ = nullptr;
};

// CLOCK_REALTIME, the clock of the kernel's receive stamps.
inline int64_t RealtimeNowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * kNsPerSec + ts.tv_nsec;
}

// When a read's replies arrived, on this clock: the kernel's receive stamp (a CLOCK_REALTIME
// instant, SO_TIMESTAMPNS; 0 when the read has none) moved by the two clocks' distance, read
// as `now_ns` and `realtime_now_ns`; never after the read itself. Pure, so the arithmetic is
// tested on exact times.
inline int64_t ArrivedNs(int64_t stamp_ns, int64_t now_ns, int64_t realtime_now_ns) {
  if (stamp_ns <= 0) return now_ns;
  return std::min(now_ns, stamp_ns - realtime_now_ns + now_ns);
}

}  // namespace dfbench::loadgen
