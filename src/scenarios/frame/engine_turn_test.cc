// The cooldown between engines' turns, slept on a fake clock: the configured time passes between
// turns (none after the last), and none really.
#include "scenarios/frame/engine_turn.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"

namespace dfbench::scenarios {
namespace {

using std::chrono::nanoseconds;
using std::chrono::seconds;

TEST(TakeTurns, TheCooldownPassesOnTheClockBetweenTurns) {
  testing::FakeClock clock;
  std::vector<nanoseconds> turn_started;
  ::testing::internal::CaptureStderr();
  const bool interrupted = TakeTurns(
      3, seconds(30),
      [&](size_t) {
        turn_started.push_back(clock.Elapsed());
        return true;
      },
      [] {}, clock);
  const std::string notes = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(interrupted);
  EXPECT_EQ(turn_started, (std::vector<nanoseconds>{seconds(0), seconds(30), seconds(60)}));
  EXPECT_EQ(clock.Elapsed(), seconds(60));
  EXPECT_NE(notes.find("cooling down for 30s before the next engine"), std::string::npos) << notes;
}

TEST(TakeTurns, AFailedTurnEndsTheRunWithoutACooldown) {
  testing::FakeClock clock;
  int turns = 0;
  const bool interrupted = TakeTurns(
      3, seconds(30),
      [&](size_t) {
        ++turns;
        return false;
      },
      [] {}, clock);
  EXPECT_TRUE(interrupted);
  EXPECT_EQ(turns, 1);
  EXPECT_EQ(clock.Elapsed(), seconds(0));
}

}  // namespace
}  // namespace dfbench::scenarios
