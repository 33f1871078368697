// The worker's reconnects on exact times: one client over a fake transport that scripts how each
// dial is answered (accepted, refused, never) and what the server does then. Each test pins the
// dial times, the requests each connection carried and the counts to what the flags make them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loadgen/fake_stream.h"
#include "loadgen/fake_transport.h"
#include "loadgen/worker.h"
#include "protocol/request_buffer.h"

namespace dfbench::loadgen::reconnect_test {
namespace {

using Answer = FakeTransport::DialAnswer;

constexpr int64_t kStart = 1'000 * kNsPerSec;
constexpr int64_t kMs = kNsPerMs;
constexpr int64_t kSec = kNsPerSec;
const std::string kOk = "+OK\r\n";

int64_t At(int64_t ns) {
  return kStart + ns;
}

// One thread, one client, `requests` SETs at `pipeline`; the test sets the reconnect flags.
Config OneClient(int pipeline, int requests) {
  Config config;
  config.load.threads = 1;
  config.load.clients = 1;
  config.load.pipeline = pipeline;
  config.load.ratio = core::Ratio{.set = 1, .get = 0};
  config.pass = core::Pass::Requests(static_cast<uint64_t>(requests));
  return config;
}

// The worker over a fake transport whose dials are answered as `answers` say; each stream it
// dialed is kept in `streams`, in order.
class ReconnectRun {
 public:
  ReconnectRun(const Config& config, std::vector<Answer> answers)
      : config_(config), workload_(BuildWorkload(config_).value()), transport_(kStart) {
    EXPECT_TRUE(Validate(config_));
    for (auto& answer : answers) {
      answer.script = [this, script = std::move(answer.script)](FakeStream& s) {
        streams.push_back(&s);
        if (script) script(s);
      };
    }
    transport_.ScriptDials(std::move(answers));
    worker_.Connect();
  }

  void Run() { worker_.Run({.start_ns = kStart, .measured_start_ns = kStart}); }
  Worker& worker() { return worker_; }
  const ThreadStats& stats() { return worker_.stats(); }
  const std::vector<int64_t>& dial_times() const { return transport_.dial_times(); }
  int64_t now() const { return transport_.now(); }
  // The bytes of the client's first `n` requests.
  std::string Requests(int n) {
    ClientWorkload client(config_, workload_, 0, 0);
    protocol::RequestBuffer out;
    for (int i = 0; i < n; ++i) client.Next(&out);
    return std::string(out.data(), out.size());
  }

  std::vector<FakeStream*> streams;

 private:
  const Config config_;
  const Workload workload_;
  FakeTransport transport_;
  Worker worker_{config_, workload_, {Target{}}, nullptr, nullptr, 0, 0, &transport_};
};

Answer Accept(std::function<void(FakeStream&)> script) {
  return {.kind = Answer::Kind::kAccept, .script = std::move(script)};
}

TEST(WorkerReconnect, AClosedConnectionRetriesAfterMemtiersBackoffOfTheFactor) {
  Config config = OneClient(/*pipeline=*/1, /*requests=*/4);
  config.reconnect_backoff_factor = 2;
  ReconnectRun run(config, {Accept([](FakeStream& s) {
                              s.Reply(kOk, 1, At(1 * kMs));
                              s.CloseAfter(2);  // the second request is lost with it
                            }),
                            {.kind = Answer::Kind::kRefuse},
                            Accept([](FakeStream& s) {
                              s.Reply(kOk, 1);
                              s.Reply(kOk, 2);
                            })});
  run.Run();

  // Lost at 1 ms; 2 s (1 s x 2) to the first attempt, refused; 4 s more to the second.
  EXPECT_EQ(run.dial_times(),
            (std::vector<int64_t>{kStart, At(1 * kMs + 2 * kSec), At(1 * kMs + 6 * kSec)}));
  const ThreadStats& stats = run.stats();
  EXPECT_EQ(stats.connection_errors, 2u);  // the close and the refusal, as memtier counts them
  EXPECT_EQ(stats.reconnects, 1u);
  EXPECT_EQ(stats.lost_requests, 1u);
  EXPECT_EQ(run.worker().progress_ops.load(), 3u);
}

TEST(WorkerReconnect, ALostConnectionGivesUpAfterMaxAttempts) {
  Config config = OneClient(/*pipeline=*/1, /*requests=*/4);
  config.max_reconnect_attempts = 2;
  config.reconnect_backoff_factor = 0;  // memtier's 1 s before each attempt
  ReconnectRun run(config, {Accept([](FakeStream& s) { s.CloseAfter(1); }),
                            {.kind = Answer::Kind::kRefuse},
                            {.kind = Answer::Kind::kRefuse},
                            {}});
  run.Run();

  // Two attempts, the second refused gives it up: no third dial.
  EXPECT_EQ(run.dial_times(), (std::vector<int64_t>{kStart, At(1 * kSec), At(2 * kSec)}));
  EXPECT_EQ(run.stats().connection_errors, 3u);
  EXPECT_EQ(run.stats().reconnects, 0u);
  EXPECT_TRUE(run.worker().all_connections_lost());
  EXPECT_EQ(run.stats().stopped_ns, At(2 * kSec));
}

TEST(WorkerReconnect, EachConnectionIsReopenedAfterIntervalRequestsAllAnswered) {
  Config config = OneClient(/*pipeline=*/2, /*requests=*/7);
  config.reconnect_interval = 3;
  // Each connection answers its first two requests, then its third a millisecond later.
  const auto three = [](int64_t from_ms) {
    return Accept([from_ms](FakeStream& s) {
      s.Reply(kOk + kOk, 2, At((from_ms + 1) * kMs));
      s.Reply(kOk, 3, At((from_ms + 2) * kMs));
    });
  };
  ReconnectRun run(
      config, {three(0), three(2), Accept([](FakeStream& s) { s.Reply(kOk, 1, At(5 * kMs)); })});
  run.Run();

  // Reopened at once when the third reply came, none after the last request.
  EXPECT_EQ(run.dial_times(), (std::vector<int64_t>{kStart, At(2 * kMs), At(4 * kMs)}));
  ASSERT_EQ(run.streams.size(), 3u);
  // Two requests, then the one the interval leaves once they are answered, never a fourth.
  EXPECT_EQ(run.streams[0]->writes().size(), 2u);
  EXPECT_EQ(run.streams[0]->requests(), 3u);
  EXPECT_EQ(run.streams[1]->requests(), 3u);
  EXPECT_EQ(run.streams[2]->requests(), 1u);
  EXPECT_EQ(run.streams[0]->written() + run.streams[1]->written() + run.streams[2]->written(),
            run.Requests(7));
  const ThreadStats& stats = run.stats();
  EXPECT_EQ(stats.lost_requests, 0u);
  EXPECT_EQ(stats.connection_errors, 0u);
  EXPECT_EQ(stats.reconnects, 2u);
  EXPECT_EQ(run.worker().progress_ops.load(), 7u);
}

TEST(WorkerReconnect, AConnectThatNeverCompletesFailsAtTheTimeoutAsAnAttempt) {
  Config config = OneClient(/*pipeline=*/1, /*requests=*/3);
  config.connection_timeout_s = 2;
  ReconnectRun run(config, {Accept([](FakeStream& s) {
                              s.Reply(kOk, 1, At(1 * kMs));
                              s.CloseAfter(2);  // the second request is lost with it
                            }),
                            {.kind = Answer::Kind::kSilent},
                            Accept([](FakeStream& s) { s.Reply(kOk, 1); })});
  run.Run();

  // Closed at 1 ms, our backoff's 10 ms, then 2 s without the connect, then 20 ms.
  EXPECT_EQ(run.dial_times(),
            (std::vector<int64_t>{kStart, At(11 * kMs), At(11 * kMs + 2 * kSec + 20 * kMs)}));
  EXPECT_EQ(run.stats().connection_errors, 2u);
  EXPECT_EQ(run.worker().first_error(), "connection closed by the server");
  EXPECT_EQ(run.worker().progress_ops.load(), 2u);
}

TEST(WorkerReconnect, TheFirstConnectFailsAtTheTimeoutToo) {
  Config config = OneClient(/*pipeline=*/1, /*requests=*/1);
  config.connection_timeout_s = 3;
  ReconnectRun run(config, {{.kind = Answer::Kind::kSilent}});

  EXPECT_EQ(run.worker().connected(), 0);
  EXPECT_EQ(run.now(), At(3 * kSec));
  EXPECT_EQ(run.worker().first_error(), "connection timed out");
  EXPECT_EQ(run.stats().connection_errors, 1u);
}

}  // namespace
}  // namespace dfbench::loadgen::reconnect_test
