// When a read's replies arrived, on exact times: the open loop reads a connection's replies at
// its next tick, well after they came in, and times them by the kernel's receive stamp.
#include "loadgen/clock.h"

#include <gtest/gtest.h>

namespace dfbench::loadgen {
namespace {

// The two clocks at the read: monotonic 5 s, realtime 1000 s (their distance is 995 s).
constexpr int64_t kReadNs = 5 * kNsPerSec;
constexpr int64_t kRealtimeAtReadNs = 1'000 * kNsPerSec;

TEST(ArrivedNs, AStampedReplyIsTimedByItsStampNotByItsLaterRead) {
  // Stamped 47 ms before the read (a reply that waited in the socket buffer for the tick).
  EXPECT_EQ(ArrivedNs(kRealtimeAtReadNs - 47 * kNsPerMs, kReadNs, kRealtimeAtReadNs),
            kReadNs - 47 * kNsPerMs);
}

TEST(ArrivedNs, AnUnstampedReplyIsTimedByItsRead) {
  EXPECT_EQ(ArrivedNs(0, kReadNs, kRealtimeAtReadNs), kReadNs);
}

TEST(ArrivedNs, AStampAfterTheReadCountsAsTheRead) {
  // The realtime clock stepped back between the stamp and the read: nothing arrives later
  // than it was read.
  EXPECT_EQ(ArrivedNs(kRealtimeAtReadNs + 3 * kNsPerMs, kReadNs, kRealtimeAtReadNs), kReadNs);
}

}  // namespace
}  // namespace dfbench::loadgen
