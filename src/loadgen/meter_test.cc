// The meter on exact values: every time is given, so each figure is known to the nanosecond.
#include "loadgen/meter.h"

#include <gtest/gtest.h>

namespace dfbench::loadgen {
namespace {

using protocol::ReplyKind;

constexpr int64_t kStart = 1'000 * kNsPerSec;  // the measured window's start
constexpr uint16_t kSet = 0, kGet = 1;

Workload SetGet() {
  Workload w;
  w.slots = {Slot{.section = "Sets", .type = "SET", .kind = Slot::Kind::kSet},
             Slot{.section = "Gets", .type = "GET", .kind = Slot::Kind::kGet}};
  return w;
}

Pending Measured(uint16_t slot, int64_t origin, int64_t sent) {
  return Pending{
      .origin_ns = origin, .sent_ns = sent, .request = {.slot = slot}, .phase = Phase::kMeasured};
}

// The seconds the meter posted, by second.
std::vector<std::unique_ptr<SecondBlock>> Posted(Meter& meter) {
  auto blocks = meter.mailbox().Take();
  std::sort(blocks.begin(), blocks.end(),
            [](const auto& a, const auto& b) { return a->second < b->second; });
  return blocks;
}

// memtier's counting: an error reply is its command's operation (count, latency, a GET's miss)
// and an error; counted apart, only an error.
TEST(Meter, ErrorRepliesAreOperationsOnlyWhenAsked) {
  const Workload w = SetGet();
  for (const bool as_ops : {true, false}) {
    Meter meter(w, /*open_loop=*/false, as_ops);
    meter.Begin(kStart);
    EXPECT_FALSE(meter.Reply(Measured(kGet, kStart + 100, kStart + 100), kStart + 400,
                             ReplyKind::kError, "ERR no"));
    meter.Finish(kStart + kNsPerSec);
    const auto blocks = Posted(meter);
    ASSERT_EQ(blocks.size(), 1u);
    const auto& get = blocks[0]->slots[kGet];
    EXPECT_EQ(get.counters.errors, 1u);
    EXPECT_EQ(get.counters.count, as_ops ? 1u : 0u);
    EXPECT_EQ(get.counters.misses, as_ops ? 1u : 0u);
    EXPECT_EQ(get.counters.hits, 0u);
    EXPECT_EQ(get.latency.count(), as_ops ? 1u : 0u);
    EXPECT_EQ(get.counters.latency_sum_ns, as_ops ? 300.0 : 0.0);
    EXPECT_EQ(meter.ok(), 0u);
    EXPECT_EQ(meter.errors(), 1u);
  }
}

TEST(Meter, RepliesCountInTheSecondTheyArriveWithTheirExactLatency) {
  const Workload w = SetGet();
  Meter meter(w, /*open_loop=*/false);
  meter.Begin(kStart);
  EXPECT_TRUE(
      meter.Reply(Measured(kSet, kStart + 100, kStart + 100), kStart + 350, ReplyKind::kOk, ""));
  EXPECT_TRUE(
      meter.Reply(Measured(kGet, kStart + 200, kStart + 200), kStart + 1200, ReplyKind::kOk, ""));
  EXPECT_TRUE(
      meter.Reply(Measured(kGet, kStart + 300, kStart + 300), kStart + 2300, ReplyKind::kNull, ""));
  meter.Advance(kStart + kNsPerSec + 5);
  EXPECT_TRUE(meter.Reply(Measured(kSet, kStart + kNsPerSec, kStart + kNsPerSec),
                          kStart + kNsPerSec + 40, ReplyKind::kOk, ""));
  EXPECT_EQ(meter.mailbox().current_second.load(), 1);
  meter.Finish(kStart + 2 * kNsPerSec);
  EXPECT_EQ(meter.mailbox().current_second.load(), INT64_MAX);
  EXPECT_EQ(meter.stats().stopped_ns, kStart + 2 * kNsPerSec);

  const auto blocks = Posted(meter);
  ASSERT_EQ(blocks.size(), 2u);
  const auto& set0 = blocks[0]->slots[kSet];
  const auto& get0 = blocks[0]->slots[kGet];
  EXPECT_EQ(set0.counters.count, 1u);
  EXPECT_EQ(set0.latency.min_ns(), 250u);
  EXPECT_EQ(set0.counters.latency_sum_ns, 250.0);
  EXPECT_EQ(get0.counters.count, 2u);
  EXPECT_EQ(get0.counters.hits, 1u);
  EXPECT_EQ(get0.counters.misses, 1u);
  EXPECT_EQ(get0.counters.latency_sum_ns, 1000.0 + 2000.0);
  EXPECT_EQ(blocks[1]->second, 1);
  EXPECT_EQ(blocks[1]->slots[kSet].counters.count, 1u);
  EXPECT_EQ(blocks[1]->slots[kSet].latency.max_ns(), 40u);
  EXPECT_EQ(meter.ok(), 4u);
  EXPECT_EQ(meter.errors(), 0u);
  EXPECT_EQ(meter.stats().last_reply_ns, kStart + kNsPerSec + 40);
}

TEST(Meter, TheOpenLoopTimesFromTheDueTimeAndFromTheSendAndKeepsTheLag) {
  const Workload w = SetGet();
  Meter meter(w, /*open_loop=*/true);
  meter.Begin(kStart);
  // Due at +0, sent at +700 (the generator was late by 700), answered at +1000.
  meter.SendLag(700);
  EXPECT_TRUE(meter.Reply(Measured(kSet, kStart, kStart + 700), kStart + 1000, ReplyKind::kOk, ""));
  // A kernel stamp a hair before the send counts as the send.
  EXPECT_TRUE(
      meter.Reply(Measured(kSet, kStart + 10, kStart + 900), kStart + 890, ReplyKind::kOk, ""));
  meter.SendLag(-5);  // sent before its due time: no lag
  meter.Finish(kStart + 1);
  const auto blocks = Posted(meter);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0]->slots[kSet].latency.max_ns(), 1000u);
  EXPECT_EQ(blocks[0]->slots[kSet].latency.min_ns(), 890u);
  EXPECT_EQ(meter.stats().uncorrected[kSet].max_ns(), 300u);
  EXPECT_EQ(meter.stats().uncorrected[kSet].min_ns(), 0u);
  EXPECT_EQ(meter.stats().send_lag.count(), 2u);
  EXPECT_EQ(meter.stats().send_lag.max_ns(), 700u);
  EXPECT_EQ(meter.stats().send_lag.min_ns(), 0u);
}

TEST(Meter, ErrorsLossesAndTheWarmUpAreCountedApart) {
  const Workload w = SetGet();
  Meter meter(w, /*open_loop=*/false);
  meter.Begin(kStart);
  Pending warm = Measured(kSet, kStart - 10, kStart - 10);
  warm.phase = Phase::kWarmup;
  EXPECT_FALSE(meter.Reply(warm, kStart - 5, ReplyKind::kOk, ""));
  EXPECT_FALSE(meter.Reply(warm, kStart - 5, ReplyKind::kError, "ERR warm"));
  for (int i = 0; i < 7; ++i) {
    const std::string text = "ERR " + std::to_string(i % 6);
    EXPECT_FALSE(meter.Reply(Measured(kGet, kStart, kStart), kStart + 1, ReplyKind::kError, text));
  }
  meter.Lost(Measured(kSet, kStart, kStart));
  meter.Lost(warm);                                                                // not measured
  meter.Lost(Pending{.request = {.slot = kAuthSlot}, .phase = Phase::kMeasured});  // control
  meter.Unanswered();
  meter.Cut(kStart + 50, "a connection was lost (reset)");
  meter.Cut(kStart + 60, "later");
  meter.Finish(kStart + 100);

  const ThreadStats& s = meter.stats();
  EXPECT_EQ(s.warmup_count, 1u);
  EXPECT_EQ(meter.errors(), 8u);  // 7 error replies and 1 lost request
  EXPECT_EQ(s.lost_requests, 1u);
  EXPECT_EQ(s.unanswered, 2u);
  EXPECT_EQ(s.error_samples,
            (std::vector<std::string>{"ERR 0", "ERR 1", "ERR 2", "ERR 3", "ERR 4"}));
  EXPECT_EQ(s.cut_ns, kStart + 50);
  EXPECT_EQ(s.cut_reason, "a connection was lost (reset)");
  const auto blocks = Posted(meter);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0]->slots[kGet].counters.errors, 7u);
  EXPECT_EQ(blocks[0]->slots[kSet].counters.errors, 1u);
  EXPECT_EQ(blocks[0]->slots[kGet].counters.count, 0u);
}

TEST(Meter, ReadBytesGoToTheCommandsAnsweredInThatReadInProportion) {
  const Workload w = SetGet();
  Meter meter(w, /*open_loop=*/false);
  meter.Begin(kStart);
  meter.StartRead();
  EXPECT_EQ(meter.Received(30), 30u);  // no reply completed: the bytes wait
  meter.StartRead();
  meter.Reply(Measured(kSet, kStart, kStart), kStart + 1, ReplyKind::kOk, "");
  meter.Reply(Measured(kGet, kStart, kStart), kStart + 1, ReplyKind::kOk, "");
  meter.Reply(Measured(kGet, kStart, kStart), kStart + 1, ReplyKind::kOk, "");
  EXPECT_EQ(meter.Received(30 + 60), 0u);
  meter.Sent(kSet, 40);
  meter.Sent(kGet, 25);
  Pending moved = Measured(kGet, kStart, kStart);
  meter.Redirected(moved, /*moved=*/true);
  meter.Redirected(moved, /*moved=*/false);
  moved.phase = Phase::kWarmup;
  meter.Redirected(moved, /*moved=*/true);
  meter.Finish(kStart + 1);
  const auto blocks = Posted(meter);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0]->slots[kSet].counters.bytes_rx, 30u);
  EXPECT_EQ(blocks[0]->slots[kGet].counters.bytes_rx, 60u);
  EXPECT_EQ(blocks[0]->slots[kSet].counters.bytes_tx, 40u);
  EXPECT_EQ(blocks[0]->slots[kGet].counters.bytes_tx, 25u);
  EXPECT_EQ(blocks[0]->slots[kGet].counters.moved, 1u);
  EXPECT_EQ(blocks[0]->slots[kGet].counters.ask, 1u);
}

TEST(Meter, NothingRollsBeforeTheWindowOrBeforeBegin) {
  const Workload w = SetGet();
  Meter meter(w, /*open_loop=*/false);
  meter.Advance(kStart + 5 * kNsPerSec);  // before Begin: no block to roll
  meter.Begin(kStart);
  meter.Advance(kStart - 1);
  EXPECT_EQ(meter.mailbox().current_second.load(), 0);
  meter.Advance(kStart + 3 * kNsPerSec);
  EXPECT_EQ(meter.mailbox().current_second.load(), 3);
  meter.Finish(kStart + 4 * kNsPerSec);
  const auto blocks = Posted(meter);
  ASSERT_EQ(blocks.size(), 2u);  // second 0, then 3 (the empty seconds between are the series')
  EXPECT_EQ(blocks[1]->second, 3);
}

}  // namespace
}  // namespace dfbench::loadgen
