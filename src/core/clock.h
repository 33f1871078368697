// The one source of time for code that waits, polls to a deadline, cools down, stamps a record or
// keeps a schedule: the real clock in production; in tests a fake (tests/support/fake_clock.h)
// whose time moves only when asked or slept on, so they pin exact times without sleeping.
#pragma once

#include <time.h>

#include <chrono>
#include <cstdint>

namespace dfbench::core {

using MonotonicTime = std::chrono::steady_clock::time_point;
using SystemTime = std::chrono::system_clock::time_point;

// CLOCK_MONOTONIC in nanoseconds, the one definition of monotonic time: inline, so the load
// generator's hot loop reads it at the cost of the system call alone. The real clock's Now() is
// made from it; std::chrono::steady_clock reads the same clock (libstdc++ on Linux), so its time
// points compare with the real clock's.
inline int64_t MonotonicNowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

class Clock {
 public:
  virtual ~Clock() = default;

  // Monotonic time: deadlines, intervals, how long something took.
  virtual MonotonicTime Now() const = 0;
  // Wall-clock time: created_at stamps, run ids, file names, instants agreed between hosts.
  virtual SystemTime WallNow() const = 0;
  // Blocks the calling thread for `duration` (none when it is not positive); a fake moves its
  // time by `duration` instead.
  virtual void SleepFor(std::chrono::nanoseconds duration) = 0;
};

// The process's real clock: MonotonicNowNs as steady_clock time points, system_clock and this
// thread's sleep. One for the whole process; it holds no state.
Clock& RealClock();

}  // namespace dfbench::core
