// The worker's loop on exact values: one client over a fake transport whose clock moves only
// while the worker waits, and a scripted server (FakeStream). Each test pins the bytes written,
// the write and read calls, and the meter's figures to what the script makes them.
#include "loadgen/worker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "loadgen/fake_stream.h"
#include "loadgen/fake_transport.h"
#include "protocol/request_buffer.h"

namespace dfbench::loadgen {
namespace {

constexpr int64_t kStart = 1'000 * kNsPerSec;
constexpr int64_t kMs = kNsPerMs;

int64_t At(int64_t ns) {
  return kStart + ns;
}

std::string Times(int n, const std::string& reply) {
  std::string out;
  for (int i = 0; i < n; ++i) out += reply;
  return out;
}

// One thread, one client, `requests` requests at `pipeline`, of the ratio sets:gets.
Config OneClient(int pipeline, int requests, core::Ratio ratio) {
  Config config;
  config.load.threads = 1;
  config.load.clients = 1;
  config.load.pipeline = pipeline;
  config.load.ratio = ratio;
  config.pass = core::Pass::Requests(static_cast<uint64_t>(requests));
  EXPECT_TRUE(Validate(config));
  return config;
}

// The worker over a fake transport, connected; the test scripts its stream, then runs it.
class WorkerRun {
 public:
  explicit WorkerRun(const Config& config)
      : config_(config),
        workload_(BuildWorkload(config_).value()),
        transport_(kStart),
        worker_(config_, workload_, {Target{}}, nullptr, nullptr, 0, 0, &transport_) {
    worker_.Connect();
    EXPECT_EQ(worker_.connected(), 1);
  }

  FakeStream& stream() { return transport_.stream(0); }
  Worker& worker() { return worker_; }

  // Runs by requests from kStart, measured from the start, and returns the seconds posted.
  std::vector<std::unique_ptr<SecondBlock>> Run() {
    worker_.Run({.start_ns = kStart, .measured_start_ns = kStart});
    auto blocks = worker_.mailbox().Take();
    std::sort(blocks.begin(), blocks.end(),
              [](const auto& a, const auto& b) { return a->second < b->second; });
    return blocks;
  }
  // The bytes of the client's first `n` requests.
  std::string Requests(int n) {
    ClientWorkload client(config_, workload_, 0, 0);
    protocol::RequestBuffer out;
    for (int i = 0; i < n; ++i) client.Next(&out);
    return std::string(out.data(), out.size());
  }

 private:
  const Config config_;
  const Workload workload_;
  FakeTransport transport_;
  Worker worker_;
};

std::vector<uint64_t> RequestsAfterEachWrite(const FakeStream& stream) {
  std::vector<uint64_t> out;
  for (const auto& w : stream.writes()) out.push_back(w.requests);
  return out;
}

TEST(Worker, AClosedLoopKeepsThePipelineFullAndTimesEachReply) {
  WorkerRun run(OneClient(/*pipeline=*/3, /*requests=*/7, core::Ratio{.set = 1, .get = 0}));
  run.stream().Reply(Times(3, "+OK\r\n"), 3, At(1 * kMs));
  run.stream().Reply(Times(3, "+OK\r\n"), 6, At(3 * kMs));
  run.stream().Reply("+OK\r\n", 7, At(6 * kMs));
  const auto blocks = run.Run();

  // Three requests in one write, three more when their replies came, then the last.
  EXPECT_EQ(RequestsAfterEachWrite(run.stream()), (std::vector<uint64_t>{3, 6, 7}));
  EXPECT_EQ(run.stream().written(), run.Requests(7));
  ASSERT_EQ(blocks.size(), 1u);
  const auto& sets = blocks[0]->slots[0];
  EXPECT_EQ(sets.counters.count, 7u);
  EXPECT_EQ(sets.counters.errors, 0u);
  // Sent at 0, 1 and 3 ms, answered at 1, 3 and 6 ms.
  EXPECT_EQ(sets.counters.latency_sum_ns, static_cast<double>((3 * 1 + 3 * 2 + 3) * kMs));
  EXPECT_EQ(sets.latency.max_ns(), static_cast<uint64_t>(3 * kMs));
  EXPECT_EQ(run.worker().stats().stopped_ns, At(6 * kMs));
  EXPECT_EQ(run.worker().progress_ops.load(), 7u);
}

TEST(Worker, EachSecondCountsTheRepliesThatArrivedInIt) {
  WorkerRun run(OneClient(/*pipeline=*/2, /*requests=*/4, core::Ratio{.set = 1, .get = 0}));
  run.stream().Reply(Times(2, "+OK\r\n"), 2, At(450 * kMs));
  // Read on waking from a wait that began at 950 ms: the read itself ends second 0.
  run.stream().Reply("+OK\r\n", 4, At(1010 * kMs));
  run.stream().Reply("+OK\r\n", 4, At(2100 * kMs));
  const auto blocks = run.Run();

  ASSERT_EQ(blocks.size(), 3u);
  const std::vector<uint64_t> counts = {2, 1, 1};
  // The first two sent at 0, the last two at 450 ms.
  const std::vector<int64_t> latency_sums = {900 * kMs, 560 * kMs, 1650 * kMs};
  for (size_t second = 0; second < blocks.size(); ++second) {
    SCOPED_TRACE(second);
    EXPECT_EQ(blocks[second]->second, static_cast<int64_t>(second));
    EXPECT_EQ(blocks[second]->slots[0].counters.count, counts[second]);
    EXPECT_EQ(blocks[second]->slots[0].counters.latency_sum_ns,
              static_cast<double>(latency_sums[second]));
  }
}

TEST(Worker, RepliesSplitAcrossReadsAreMatchedToTheirRequestsInOrder) {
  WorkerRun run(OneClient(/*pipeline=*/2, /*requests=*/2, core::Ratio{.set = 0, .get = 1}));
  // A hit split inside its payload, then a miss split inside its header line.
  run.stream().Reply("$3\r\na", 2, At(1 * kMs));
  run.stream().Reply("bc\r\n$-", 2, At(2 * kMs));
  run.stream().Reply("1\r\n", 2, At(3 * kMs));
  const auto blocks = run.Run();

  EXPECT_EQ(run.stream().reads(), 3);
  ASSERT_EQ(blocks.size(), 1u);
  const auto& gets = blocks[0]->slots[1];  // SET is slot 0 whatever the ratio
  EXPECT_EQ(gets.counters.count, 2u);
  EXPECT_EQ(gets.counters.hits, 1u);
  EXPECT_EQ(gets.counters.misses, 1u);
  EXPECT_EQ(gets.counters.latency_sum_ns, static_cast<double>((2 + 3) * kMs));
  EXPECT_EQ(gets.counters.bytes_rx, 14u);
  EXPECT_EQ(run.worker().stats().connection_errors, 0u);
}

TEST(Worker, AConnectionClosedWithRequestsInFlightCountsThemLost) {
  WorkerRun run(OneClient(/*pipeline=*/4, /*requests=*/4, core::Ratio{.set = 1, .get = 0}));
  run.stream().Reply("+OK\r\n", 4, At(1 * kMs));
  run.stream().CloseAfter(4);
  const auto blocks = run.Run();

  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0]->slots[0].counters.count, 1u);
  EXPECT_EQ(blocks[0]->slots[0].counters.errors, 3u);
  const ThreadStats& stats = run.worker().stats();
  EXPECT_EQ(stats.lost_requests, 3u);
  EXPECT_EQ(stats.unanswered, 3u);
  EXPECT_EQ(stats.connection_errors, 1u);
  EXPECT_EQ(stats.cut_ns, At(1 * kMs));
  EXPECT_EQ(stats.cut_reason, "a connection was lost (connection closed by the server)");
  EXPECT_EQ(run.worker().progress_errors.load(), 3u);
}

TEST(Worker, AShortWriteIsResumedWithTheRemainingBytesOnceWritable) {
  WorkerRun run(OneClient(/*pipeline=*/3, /*requests=*/3, core::Ratio{.set = 1, .get = 0}));
  run.stream().LimitNextWrite(10);
  run.stream().Reply(Times(3, "+OK\r\n"), 3, At(1 * kMs));
  const auto blocks = run.Run();

  const std::string requests = run.Requests(3);
  const size_t rest = requests.size() - 10;
  // Ten bytes taken, the rest refused while the socket is full, then all of it at once.
  EXPECT_EQ(run.stream().writes(),
            (std::vector<FakeStream::WriteCall>{{.offered = requests.size(), .taken = 10},
                                                {.offered = rest, .taken = 0},
                                                {.offered = rest, .taken = rest, .requests = 3}}));
  EXPECT_EQ(run.stream().written(), requests);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0]->slots[0].counters.count, 3u);
}

}  // namespace
}  // namespace dfbench::loadgen
