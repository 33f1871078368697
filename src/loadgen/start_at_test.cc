// The wait for --start-at on a fake clock: it ends exactly when the warm-up would end at the
// agreed instant, and not at all once that moment has passed.
#include "loadgen/start_at.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"

namespace dfbench::loadgen {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

int64_t EpochUs(core::SystemTime t) {
  return std::chrono::duration_cast<microseconds>(t.time_since_epoch()).count();
}

TEST(WaitForStart, EndsWhenTheWarmupWouldEndAtTheInstant) {
  testing::FakeClock clock;
  const core::SystemTime at = clock.WallNow() + seconds(10) + milliseconds(20);
  WaitForStart(EpochUs(at), seconds(2), clock);
  EXPECT_EQ(clock.WallNow(), at - seconds(2));
  EXPECT_EQ(clock.sleeps().size(), 161u);  // 160 slices of 50 ms, then the last 20 ms
  EXPECT_EQ(clock.sleeps().back(), milliseconds(20));
}

TEST(WaitForStart, APassedInstantOrNoneStartsAtOnce) {
  testing::FakeClock clock;
  WaitForStart(EpochUs(clock.WallNow() + seconds(1)), seconds(5), clock);
  WaitForStart(0, seconds(5), clock);
  EXPECT_EQ(clock.Elapsed(), nanoseconds(0));
}

}  // namespace
}  // namespace dfbench::loadgen
