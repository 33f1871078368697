// A clock whose time moves only when the test advances it or code sleeps on it: a sleep returns
// at once, its duration added to both the monotonic and the wall time and recorded, so a test
// reads exactly when each poll happened and waits for none.
//
//   dfbench::testing::FakeClock clock;
//   WaitForSomething(..., clock);           // every poll's sleep moves clock.Now()
//   EXPECT_EQ(clock.Elapsed(), seconds(30));
//
// Its own library (dfbench_fake_clock, linking core alone), so the tests of every layer, core's
// included, can use it; dfbench_test_support passes it on.
#pragma once

#include <chrono>
#include <mutex>
#include <vector>

#include "core/clock.h"

namespace dfbench::testing {

class FakeClock final : public core::Clock {
 public:
  // 2026-04-08T14:32:17Z: a wall time whose stamps and ids a test can write out.
  static constexpr core::SystemTime kDefaultWallTime{std::chrono::seconds(1775658737)};

  explicit FakeClock(core::SystemTime wall = kDefaultWallTime) : wall_start_(wall) {}

  core::MonotonicTime Now() const override;
  core::SystemTime WallNow() const override;
  // Moves the time by `duration` (none when it is not positive) and records it.
  void SleepFor(std::chrono::nanoseconds duration) override;

  // Moves the time by `duration` without recording a sleep (what happens meanwhile elsewhere).
  void Advance(std::chrono::nanoseconds duration);
  // How far the time has moved since the clock was made.
  std::chrono::nanoseconds Elapsed() const;
  // Every sleep's duration, in order (positive ones only).
  std::vector<std::chrono::nanoseconds> sleeps() const;

 private:
  // A monotonic origin away from zero, so time_point{} never reads as "now".
  static constexpr core::MonotonicTime kMonotonicStart{std::chrono::hours(1)};

  mutable std::mutex mu_;  // the code under test may read and sleep from its own threads
  const core::SystemTime wall_start_;
  std::chrono::nanoseconds elapsed_{0};
  std::vector<std::chrono::nanoseconds> sleeps_;
};

}  // namespace dfbench::testing
