// memtier's --client-stats CSV of one client, on exact values, and what the meter gives each
// client: its own replies, bytes and seconds, none of another's.
#include "loadgen/client_stats_csv.h"

#include <gtest/gtest.h>

#include "loadgen/meter.h"

namespace dfbench::loadgen {
namespace {

constexpr uint32_t kSet = 0, kGet = 1;

Workload SetGet() {
  Workload w;
  w.slots = {Slot{.section = "Sets", .type = "SET", .kind = Slot::Kind::kSet},
             Slot{.section = "Gets", .type = "GET", .kind = Slot::Kind::kGet}};
  return w;
}

constexpr std::string_view kSetGetHeader =
    "Per-Second Benchmark Data\n"
    "Second,SET Requests,SET Average Latency,SET Total Bytes,SET Total Bytes TX,SET Total Bytes "
    "RX,GET Requests,GET Average Latency,GET Total Bytes,GET Total Bytes TX,GET Total Bytes RX,"
    "GET Misses,GET Hits,WAIT Requests,WAIT Average Latency\n";

// memtier's table of an empty histogram: one row at 100 %.
constexpr std::string_view kEmptyTable = "Latency\nLatency (<= msec),Percent\n   0.000,100.000\n";

TEST(ClientStatsCsv, SetGetSecondsAndLatencyTables) {
  ClientTally tally(2);
  // Second 0: two SETs of 40 us and 1.5 ms; second 2: one GET of 2 s, a hit. Second 1 had none.
  tally.Op(0, kSet, 40'000);
  tally.Op(0, kSet, 1'500'000);
  tally.At(0, kSet).bytes_tx = 100;
  tally.At(0, kSet).bytes_rx = 10;
  tally.Op(2, kGet, 2'000'000'000);
  tally.At(2, kGet).hits = 1;
  tally.At(2, kGet).bytes_tx = 30;
  tally.At(2, kGet).bytes_rx = 7;
  const std::string csv = ClientStatsCsv(tally, MakeClientCsvLayout(SetGet(), false, false));
  // 8 us buckets at the bottom (memtier's 10 us lowest value): 40 us is 40..47; 1.5 ms and
  // 2 s fall in buckets of 2 significant digits (1496..1503 us, 1998848..2007039 us).
  const std::string expected =
      std::string(kSetGetHeader) +
      "0,2,0.000770,110,100,10,0,0.000000,0,0,0,0,0,0,0.000000\n"
      "2,0,0.000000,0,0,0,1,2.000000,37,30,7,0,1,0,0.000000\n"
      "\nFull-Test GET Latency\nLatency (<= msec),Percent\n"
      "2007.039,0.000\n2007.039,100.000\n"
      "\nFull-Test SET Latency\nLatency (<= msec),Percent\n"
      "   0.047,0.000\n   0.047,5.000\n   0.047,10.000\n   0.047,15.000\n   0.047,20.000\n"
      "   0.047,25.000\n   0.047,30.000\n   0.047,35.000\n   0.047,40.000\n   0.047,45.000\n"
      "   0.047,50.000\n   1.503,52.500\n   1.503,100.000\n"
      "\nFull-Test WAIT " +
      std::string(kEmptyTable);
  EXPECT_EQ(csv, expected);
}

TEST(ClientStatsCsv, AClientWithoutRepliesHasSecondZero) {
  const std::string csv =
      ClientStatsCsv(ClientTally(2), MakeClientCsvLayout(SetGet(), false, true));
  EXPECT_EQ(csv, std::string(kSetGetHeader) +
                     "0,0,0.000000,0,0,0,0,0.000000,0,0,0,0,0,0,0.000000\n"
                     "\nFull-Test GET " +
                     std::string(kEmptyTable) + "\nFull-Test SET " + std::string(kEmptyTable) +
                     "\nFull-Test WAIT " + std::string(kEmptyTable) +
                     "\nPer-Second Benchmark Cluster Data\nSecond,SET Moved,SET Ask,GET Moved,"
                     "GET Ask\n0,0,0,0,0\n");
}

TEST(ClientStatsCsv, ClusterRedirectionsPerSecond) {
  ClientTally tally(2);
  tally.At(1, kSet).moved = 3;
  tally.At(1, kGet).ask = 2;
  const std::string csv = ClientStatsCsv(tally, MakeClientCsvLayout(SetGet(), false, true));
  EXPECT_NE(csv.find("\nPer-Second Benchmark Cluster Data\nSecond,SET Moved,SET Ask,GET Moved,"
                     "GET Ask\n1,3,0,0,2\n"),
            std::string::npos)
      << csv;
}

TEST(ClientStatsCsv, CommandsHaveAColumnGroupEach) {
  Workload w;
  w.slots = {Slot{.section = "Lpushs", .type = "LPUSH"}, Slot{.section = "Lpops", .type = "LPOP"}};
  ClientTally tally(2);
  tally.Op(0, 0, 100'000);
  tally.At(0, 0).bytes_tx = 20;
  tally.At(0, 0).bytes_rx = 4;
  const std::string csv = ClientStatsCsv(tally, MakeClientCsvLayout(w, true, true));
  EXPECT_EQ(csv,
            "Per-Second Benchmark Arbitrary Commands Data\n"
            "Second,LPUSH Requests,LPUSH Average Latency,LPUSH Total Bytes,LPUSH Total Bytes TX,"
            "LPUSH Total Bytes RX,LPOP Requests,LPOP Average Latency,LPOP Total Bytes,LPOP Total "
            "Bytes TX,LPOP Total Bytes RX\n"
            "0,1,0.000100,24,20,4,0,0.000000,0,0,0,\n"
            "\nFull-Test LPUSH Latency\nLatency (<= msec),Percent\n"
            "   0.103,0.000\n   0.103,100.000\n"
            "\nFull-Test LPOP " +
                std::string(kEmptyTable));
}

TEST(ClientStatsCsv, FilesAreNamedByRunThreadAndClient) {
  const std::vector<ClientTally> tallies(2, ClientTally(2));
  const auto files =
      ClientStatsFiles(tallies, MakeClientCsvLayout(SetGet(), false, false), "out/cs", 3, 1);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "out/cs-3-1-0.csv");
  EXPECT_EQ(files[1].path, "out/cs-3-1-1.csv");
}

// The meter gives each client what its own connections read and sent, in the second it falls.
TEST(ClientStatsMeter, EachClientGetsItsOwnReplies) {
  constexpr int64_t kStart = 1'000 * kNsPerSec;
  const Workload w = SetGet();
  Meter meter(w, /*open_loop=*/false);
  meter.Begin(kStart);
  ClientTally a(2), b(2);
  const auto measured = [](uint16_t slot, int64_t sent) {
    return Pending{
        .origin_ns = sent, .sent_ns = sent, .request = {.slot = slot}, .phase = Phase::kMeasured};
  };
  meter.Sent(kGet, 25, &a);
  meter.Sent(kSet, 40, &b);
  meter.StartRead(&a);
  meter.Reply(measured(kGet, kStart), kStart + 50'000, protocol::ReplyKind::kNull, "");
  EXPECT_EQ(meter.Received(9), 0u);
  meter.Advance(kStart + kNsPerSec + 1);
  meter.StartRead(&b);
  meter.Reply(measured(kSet, kStart), kStart + kNsPerSec + 1, protocol::ReplyKind::kOk, "");
  EXPECT_EQ(meter.Received(5), 0u);

  ASSERT_EQ(a.seconds().size(), 1u);
  const SlotCounters& get = a.seconds()[0].slots[kGet];
  EXPECT_EQ(get.count, 1u);
  EXPECT_EQ(get.misses, 1u);
  EXPECT_EQ(get.hits, 0u);
  EXPECT_EQ(get.bytes_tx, 25u);
  EXPECT_EQ(get.bytes_rx, 9u);
  EXPECT_EQ(a.latency_us()[kGet].total_count(), 1);
  EXPECT_EQ(a.seconds()[0].slots[kSet].count, 0u);

  // b sent in second 0 and had its reply in second 1: two rows.
  ASSERT_EQ(b.seconds().size(), 2u);
  EXPECT_EQ(b.seconds()[0].slots[kSet].bytes_tx, 40u);
  EXPECT_EQ(b.seconds()[1].second, 1);
  EXPECT_EQ(b.seconds()[1].slots[kSet].count, 1u);
  EXPECT_EQ(b.seconds()[1].slots[kSet].bytes_rx, 5u);
  EXPECT_EQ(b.latency_us()[kGet].total_count(), 0);
}

}  // namespace
}  // namespace dfbench::loadgen
