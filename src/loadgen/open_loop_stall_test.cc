// A server that stands still, on exact times: the pacer's schedule and the meter's figures for
// the requests that fall due while it does. Latency counts from the due time, so the requests
// queued behind the stall carry it too (no coordinated omission), timed from their sends they
// would not, and the generator is not charged for the wait (no send lag).
#include <gtest/gtest.h>

#include "loadgen/clock.h"
#include "loadgen/meter.h"
#include "loadgen/pacer.h"

namespace dfbench::loadgen {
namespace {

using protocol::ReplyKind;

constexpr int64_t kStartNs = 7 * kNsPerSec;

Workload OneSet() {
  Workload w;
  w.slots = {Slot{.section = "Sets", .type = "SET", .kind = Slot::Kind::kSet}};
  return w;
}

// One connection that holds one request at a time (pipeline 1), a request due every 1 ms for
// 10 ms, no warm-up, and a server that answers the moment a request reaches it, except that it
// stands still from 2 ms to 6 ms with the request due at 2 ms in hand.
class OpenLoopStall : public ::testing::Test {
 protected:
  OpenLoopStall() : pacer_({.by_time = true, .interval_ns = 1e6}), meter_(workload_, true) {
    pacer_.Start(
        {.start_ns = kStartNs, .measured_start_ns = kStartNs, .end_ns = kStartNs + 10 * kNsPerMs});
    meter_.Begin(kStartNs);
  }

  static int64_t At(int64_t ms) { return kStartNs + ms * kNsPerMs; }

  // The request due by `now`, drawn from the schedule with its due time as its origin.
  Pending Due(int64_t now) {
    const std::optional<int64_t> origin = pacer_.Take(now);
    EXPECT_TRUE(origin) << "nothing due at " << now;
    return Pending{
        .origin_ns = origin.value_or(0), .request = {.slot = 0}, .phase = Phase::kMeasured};
  }
  // `p` leaves at `now`, its connection having had room since `room_since`.
  void Send(Pending& p, int64_t now, int64_t room_since) {
    p.sent_ns = now;
    meter_.SendLag(pacer_.Sent(&p.origin_ns, now, room_since).value_or(-1));
  }
  // Due, sent and answered at `ms`.
  void OnTime(int64_t ms) {
    Pending p = Due(At(ms));
    Send(p, At(ms), At(ms));
    EXPECT_TRUE(meter_.Reply(p, At(ms), ReplyKind::kOk, ""));
  }

  const Workload workload_ = OneSet();
  Pacer pacer_;
  Meter meter_;
};

TEST_F(OpenLoopStall, TheRequestsQueuedBehindAStallCarryItFromTheirDueTimes) {
  OnTime(0);
  OnTime(1);
  Pending stalled = Due(At(2));
  Send(stalled, At(2), At(2));
  // Due at 3, 4 and 5 ms, none drawn while the connection has no room. At 6 ms the server
  // answers; the three go one after another, each drawn with its own due time and answered at
  // once.
  EXPECT_TRUE(meter_.Reply(stalled, At(6), ReplyKind::kOk, ""));
  for (int i = 0; i < 3; ++i) {
    Pending p = Due(At(6));
    Send(p, At(6), At(6));
    EXPECT_TRUE(meter_.Reply(p, At(6), ReplyKind::kOk, ""));
  }
  for (int64_t ms : {6, 7, 8, 9}) OnTime(ms);
  EXPECT_FALSE(pacer_.More(At(10)));
  meter_.Finish(At(10));

  auto blocks = meter_.mailbox().Take();
  ASSERT_EQ(blocks.size(), 1u);
  const SecondBlock::PerSlot& sets = blocks[0]->slots[0];
  EXPECT_EQ(sets.counters.count, 10u);
  // From the due times: the held request waited the whole 4 ms stall, the ones due at 3, 4 and
  // 5 ms its remaining 3, 2 and 1 ms; the rest nothing.
  EXPECT_EQ(sets.latency.max_ns(), static_cast<uint64_t>(4 * kNsPerMs));
  EXPECT_EQ(sets.counters.latency_sum_ns, static_cast<double>((4 + 3 + 2 + 1) * kNsPerMs));
  // From the sends: only the held request shows the stall.
  const LatencyHistogram& from_send = meter_.stats().uncorrected[0];
  EXPECT_EQ(from_send.count(), 10u);
  EXPECT_EQ(from_send.max_ns(), static_cast<uint64_t>(4 * kNsPerMs));
  EXPECT_EQ(from_send.mean_ns(), static_cast<double>(4 * kNsPerMs) / 10);
  // The generator sent each request as soon as it was due and had room: no lag of its own.
  EXPECT_EQ(meter_.stats().send_lag.count(), 10u);
  EXPECT_EQ(meter_.stats().send_lag.max_ns(), 0u);
}

}  // namespace
}  // namespace dfbench::loadgen
