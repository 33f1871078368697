// The pacer on exact times: which request may go when, from which origin, and how many are left.
#include "loadgen/pacer.h"

#include <gtest/gtest.h>

#include "loadgen/clock.h"

namespace dfbench::loadgen {
namespace {

constexpr int64_t kRunStart = 50 * kNsPerMs;

RunTimes Times(int64_t warmup_ns, int64_t test_ns) {
  return RunTimes{.start_ns = kRunStart,
                  .measured_start_ns = kRunStart + warmup_ns,
                  .end_ns = test_ns > 0 ? kRunStart + warmup_ns + test_ns : 0};
}

TEST(Pacer, TheClosedLoopSendsAtOnceUntilItsBudgetIsSpent) {
  Pacer pacer({.limit = 3});
  pacer.Start(Times(0, 0));
  EXPECT_FALSE(pacer.open_loop());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(pacer.More(kRunStart + i));
    EXPECT_EQ(pacer.Take(kRunStart + i), kRunStart + i);
    pacer.Issued();
  }
  EXPECT_FALSE(pacer.More(kRunStart + 3));
  // Its origin is when it leaves: drawn at 10, handed to the kernel at 17.
  int64_t origin = 10;
  EXPECT_EQ(pacer.Sent(&origin, 17, 0), std::nullopt);
  EXPECT_EQ(origin, 17);
  EXPECT_EQ(pacer.TakeUnsent(), 0u);
}

TEST(Pacer, TheClosedLoopByTimeEndsWithTheTestTime) {
  Pacer pacer({.by_time = true});
  pacer.Start(Times(kNsPerSec, 2 * kNsPerSec));
  EXPECT_TRUE(pacer.More(kRunStart + 3 * kNsPerSec - 1));
  EXPECT_FALSE(pacer.More(kRunStart + 3 * kNsPerSec));
}

TEST(Pacer, TheOpenLoopSendsEachRequestAtItsDueTimeNeverBefore) {
  // Every 1 ms from 250 us after the start, on a grid of 1 ns ticks (no grid).
  Pacer pacer({.by_time = true, .interval_ns = 1e6, .t0_ns = 250'000});
  pacer.Start(Times(0, 10 * kNsPerMs));
  EXPECT_TRUE(pacer.open_loop());
  EXPECT_EQ(pacer.NextDue(), kRunStart + 250'000);
  EXPECT_EQ(pacer.Take(kRunStart + 249'999), std::nullopt);
  EXPECT_EQ(pacer.Take(kRunStart + 250'000), kRunStart + 250'000);
  // Late: the two due by now go at once, each timed from its own due time.
  EXPECT_EQ(pacer.Take(kRunStart + 2'400'000), kRunStart + 1'250'000);
  EXPECT_EQ(pacer.Take(kRunStart + 2'400'000), kRunStart + 2'250'000);
  EXPECT_EQ(pacer.Take(kRunStart + 2'400'000), std::nullopt);
  // Sent at 2.4 ms, due at 1.25 ms; its connection had room from 2 ms on: 400 us late by the
  // generator's doing; the origin stays the due time.
  int64_t origin = kRunStart + 1'250'000;
  EXPECT_EQ(pacer.Sent(&origin, kRunStart + 2'400'000, kRunStart + 2'000'000), 400'000);
  EXPECT_EQ(origin, kRunStart + 1'250'000);
  // With room from before it was due, the lag is from its due time.
  EXPECT_EQ(pacer.Sent(&origin, kRunStart + 2'400'000, kRunStart), 1'150'000);
}

TEST(Pacer, TheOpenLoopOnAGridSendsATicksRequestsTogetherAtItsStart) {
  // Thread 0 of 1, ticks of 1 ms (their offset puts a tick start at the schedule's start); a
  // request every 300 us.
  Pacer pacer({.by_time = true, .interval_ns = 3e5, .grid = ScheduleGrid(kNsPerMs, 0, 1)});
  pacer.Start(Times(0, 2 * kNsPerMs));
  // Due at 0, 300, 600, 900 us: all in the first tick, all due at its start.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(pacer.Take(kRunStart), kRunStart) << i;
  // 1200 us: the next tick's.
  EXPECT_EQ(pacer.Take(kRunStart + 999'999), std::nullopt);
  EXPECT_EQ(pacer.NextDue(), kRunStart + kNsPerMs);
}

TEST(Pacer, TheOpenLoopCountsWhatFellDueUnsentInTheMeasuredWindow) {
  // A request every 1 ms, warm-up 2 ms, test 5 ms: due at 0..6 ms, 7 requests in all.
  Pacer pacer({.by_time = true, .interval_ns = 1e6});
  pacer.Start(Times(2 * kNsPerMs, 5 * kNsPerMs));
  EXPECT_EQ(pacer.Take(kRunStart + 3 * kNsPerMs), kRunStart);  // the first went out, in warm-up
  ASSERT_TRUE(pacer.More(kRunStart + 3 * kNsPerMs));
  // Left: due at 1 ms (warm-up) and 2..6 ms (measured): 5 unsent in the window.
  EXPECT_EQ(pacer.TakeUnsent(), 5u);
  EXPECT_FALSE(pacer.More(kRunStart + 3 * kNsPerMs));
  EXPECT_EQ(pacer.TakeUnsent(), 0u);
}

TEST(Pacer, AnOpenLoopByRequestsEndsAtItsBudget) {
  Pacer pacer({.limit = 2, .interval_ns = 1e6});
  pacer.Start(Times(0, 0));
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(pacer.More(kRunStart + i * kNsPerMs));
    ASSERT_EQ(pacer.Take(kRunStart + i * kNsPerMs), kRunStart + i * kNsPerMs);
    pacer.Issued();
  }
  EXPECT_FALSE(pacer.More(kRunStart + 5 * kNsPerMs));
  EXPECT_EQ(pacer.TakeUnsent(), 0u);  // a run by requests owes nothing past its budget
}

}  // namespace
}  // namespace dfbench::loadgen
