// The interruptible sleep on a fake clock: the whole duration passes in slices, none really.
#include "core/interrupt.h"

#include <gtest/gtest.h>

#include <csignal>

#include "support/fake_clock.h"

namespace dfbench::core {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

TEST(SleepUnlessInterrupted, SleepsTheWholeDurationInSlicesOfTheClock) {
  testing::FakeClock clock;
  EXPECT_TRUE(SleepUnlessInterrupted(milliseconds(120), clock));
  EXPECT_EQ(clock.Elapsed(), milliseconds(120));
  EXPECT_EQ(clock.sleeps(),
            (std::vector<nanoseconds>{milliseconds(50), milliseconds(50), milliseconds(20)}));
}

TEST(SleepUnlessInterrupted, AnInterruptEndsItBeforeTheFirstSlice) {
  InstallInterruptHandlers();
  std::raise(SIGINT);
  testing::FakeClock clock;
  EXPECT_FALSE(SleepUnlessInterrupted(seconds(30), clock));
  ResetInterruptForTesting();
  EXPECT_EQ(clock.Elapsed(), nanoseconds(0));
}

}  // namespace
}  // namespace dfbench::core
