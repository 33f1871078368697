// The load generator's clock: nanoseconds of CLOCK_MONOTONIC, as the workers schedule sends and
// the runner measures the test time, so both read the same time (core's monotonic time, which
// core::RealClock() reads too).
#pragma once

#include <time.h>

#include <cstdint>

#include "core/clock.h"

namespace dfbench::loadgen {

inline constexpr int64_t kNsPerSec = 1'000'000'000;
inline constexpr int64_t kNsPerMs = 1'000'000;

inline int64_t NowNs() {
  return core::MonotonicNowNs();
}

// A CLOCK_REALTIME instant (the kernel's receive timestamps, SO_TIMESTAMPNS) on this clock, by
// the two clocks' distance now.
inline int64_t FromRealtimeNs(int64_t realtime_ns, int64_t now_ns) {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return realtime_ns - (static_cast<int64_t>(ts.tv_sec) * kNsPerSec + ts.tv_nsec) + now_ns;
}

}  // namespace dfbench::loadgen
