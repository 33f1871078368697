// A server that goes away mid-run: killed (SIGKILL), stopped (SIGSTOP) or killed and restarted
// on its port, under `dfbench loadgen` and under `run`. The generator counts the requests lost
// with their connections as errors, says the run ended early and exits 5; `run` fails the trial
// that was cut, leaves it out of the medians and exits 1. Every wait has a deadline.
#include <gtest/gtest.h>
#include <signal.h>

#include <optional>
#include <thread>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using std::chrono::steady_clock;

constexpr auto kFault = std::chrono::milliseconds(1500);  // into the measured window

std::string Text(const fs::path& path) {
  auto text = core::ReadFile(path);
  return text ? *text : std::string();
}

// A stopped server is continued before it is killed, whatever the test did.
struct Continued {
  pid_t pid = 0;
  ~Continued() {
    if (pid > 0) kill(pid, SIGCONT);
  }
};

class LostServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = TestServer::StartRedis();
    if (!server) GTEST_SKIP() << server.error().message;
    server_.emplace(std::move(*server));
  }

  // `dfbench loadgen` against the server for `length` (loadgen's flags), with `fault` done
  // kFault in; the result, the JSON report and how long it took.
  struct Loadgen {
    CliResult result;
    json report;
    double seconds = 0;
  };
  Loadgen RunLoadgen(const std::vector<std::string>& length, const std::function<void()>& fault) {
    const fs::path report = dir_.path() / "report.json";
    std::vector<std::string> args = {"loadgen",
                                     "-p",
                                     std::to_string(server_->port()),
                                     "-t",
                                     "1",
                                     "-c",
                                     "4",
                                     "--progress",
                                     "never",
                                     "--json-out-file",
                                     report.string()};
    args.insert(args.end(), length.begin(), length.end());
    // The fault on this thread: a server started here dies with the thread that started it
    // (parent-death signal).
    const auto start = steady_clock::now();
    core::Process run = dfb_.Start(args);
    std::this_thread::sleep_for(kFault);
    fault();
    Loadgen out;
    const auto status = run.WaitFor(std::chrono::seconds(40));
    out.seconds = std::chrono::duration<double>(steady_clock::now() - start).count();
    out.result.code = !status ? -1 : status->signal ? 128 + status->signal : status->code;
    out.result.out = Text(dfb_.home() / "bg.stdout");
    out.result.err = Text(dfb_.home() / "bg.stderr");
    auto text = core::ReadFile(report);
    if (text) out.report = json::parse(*text, nullptr, false);
    return out;
  }

  // What every lost server leaves in the generator's report and exit.
  static void ExpectEndedEarly(const Loadgen& run, const std::string& reason) {
    EXPECT_EQ(run.result.code, 5) << run.result.err;
    EXPECT_EQ(CountLines(run.result.err), 1) << run.result.err;
    EXPECT_NE(run.result.err.find("the run ended early: " + reason), std::string::npos)
        << run.result.err;
    ASSERT_TRUE(run.report.is_object()) << run.result.err;
    const json& d = run.report["dfbench"];
    ASSERT_TRUE(d["ended_early"].is_object()) << d.dump();
    EXPECT_NE(d["ended_early"]["reason"].get<std::string>().find(reason), std::string::npos);
    EXPECT_NEAR(d["ended_early"]["at_sec"].get<double>(), 1.5, 1.0);
    EXPECT_GT(d["errors"].get<uint64_t>(), 0u);
    EXPECT_GT(d["lost_requests"].get<uint64_t>(), 0u);
    const json& totals = run.report["ALL STATS"]["Totals"];
    EXPECT_GE(totals["Errors"].get<uint64_t>(), d["lost_requests"].get<uint64_t>());
    EXPECT_NE(run.result.out.find("Ended early: "), std::string::npos) << run.result.out;
  }

  std::optional<TestServer> server_;
  DfbenchRunner dfb_{"lost-server"};
  ScopedTempDir dir_{"lost-server"};
};

// Killed 1.5 s into 4 s: ops/s is over the 4 s the run took, not the 1.5 s the server answered.
TEST_F(LostServerTest, LoadgenAgainstAKilledServerCountsTheLossAndExits5) {
  const auto run = RunLoadgen({"--test-time", "4s"}, [&] { server_->Stop(); });
  ExpectEndedEarly(run, "a connection was lost");
  EXPECT_GT(run.report["dfbench"]["connection_errors"].get<uint64_t>(), 0u);
  const json& all = run.report["ALL STATS"];
  const double duration_ms = all["Runtime"]["Total duration"].get<double>();
  EXPECT_NEAR(duration_ms, 4000, 300);
  const double count = all["Totals"]["Count"].get<double>();
  EXPECT_NEAR(all["Totals"]["Ops/sec"].get<double>(), count / (duration_ms / 1000), 1);
  EXPECT_LT(run.seconds, 15);
}

// A stopped server keeps its sockets: nothing fails, replies just stop. A timed run ends at
// its test time and drain; a run by requests ends 10 s after the last reply.
TEST_F(LostServerTest, LoadgenAgainstAStoppedServerEndsByItsOwnDeadline) {
  Continued continued{server_->pid()};
  const auto timed = RunLoadgen({"--test-time", "3s"}, [&] { kill(server_->pid(), SIGSTOP); });
  ExpectEndedEarly(timed, "the server stopped answering");
  EXPECT_LT(timed.seconds, 10);
  kill(server_->pid(), SIGCONT);

  const auto counted = RunLoadgen({"-n", "100000000"}, [&] { kill(server_->pid(), SIGSTOP); });
  ExpectEndedEarly(counted, "the server stopped answering (no reply for 10 s)");
  EXPECT_LT(counted.seconds, 20);
}

// Killed and back on its port 0.5 s later: the clients reconnect and the load goes on, but the
// requests in flight were lost and the run is not a whole one.
TEST_F(LostServerTest, LoadgenAgainstARestartedServerReconnectsAndStillExits5) {
  const int port = server_->port();
  const auto run = RunLoadgen({"--test-time", "4s"}, [&] {
    server_->Stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    auto again = TestServer::StartRedisOn(port);
    ASSERT_TRUE(again) << again.error().message;
    server_.emplace(std::move(*again));
  });
  ExpectEndedEarly(run, "a connection was lost");
  EXPECT_GT(run.report["dfbench"]["reconnects"].get<uint64_t>(), 0u);
  EXPECT_GT(server_->Calls("set") + server_->Calls("get"), 0u);  // the load went on
  EXPECT_LT(run.seconds, 15);
}

// `run` on an endpoint killed and restarted during trial 1 of 2: trial 1 is failed with its
// reason (the window ended early; the restarted server counted fewer than were answered), the
// median is trial 2's alone, the run exits 1.
TEST_F(LostServerTest, RunFailsTheTrialTheServerWentAwayIn) {
  const int port = server_->port();
  const std::string url = "redis://127.0.0.1:" + std::to_string(port);
  ASSERT_NO_FATAL_FAILURE(
      dfb_.RunOk({"setup", "--id", "lost", "--endpoint", url, "--allow-flush"}));
  core::Process run =
      dfb_.Start({"run", "--id", "lost", "--engines", "redis", "--test-time", "3", "--trials", "2",
                  "--warmup-requests", "0", "--cooldown", "0s", "--memtier-threads", "1",
                  "--memtier-clients", "2", "--output", "json"});
  ASSERT_TRUE(dfb_.WaitForBackgroundErr("trial 1/2", std::chrono::seconds(30)))
      << dfb_.BackgroundErrTail();
  std::this_thread::sleep_for(kFault);
  server_->Stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto again = TestServer::StartRedisOn(port);
  ASSERT_TRUE(again) << again.error().message;
  server_.emplace(std::move(*again));
  const auto status = run.WaitFor(std::chrono::seconds(60));
  ASSERT_TRUE(status) << "run did not end; " << dfb_.BackgroundErrTail();
  EXPECT_EQ(status->code, 1) << dfb_.BackgroundErrTail();

  const fs::path run_dir = dfb_.WaitForRunDir(
      "lost", "benchmarks", [](const fs::path& dir) { return FirstEngineHas(dir, "trials", 2); });
  ASSERT_FALSE(run_dir.empty());
  auto text = core::ReadFile(run_dir / "results.json");
  ASSERT_TRUE(text);
  const json results = json::parse(*text);
  const json& redis = results["engines"][0];
  const json& cut = redis["trials"][0];
  const json& whole = redis["trials"][1];
  EXPECT_NE(cut["failed"].get<std::string>().find("the measured window ended early: a connection "
                                                  "was lost"),
            std::string::npos)
      << cut.dump();
  EXPECT_GT(cut["errors"].get<uint64_t>(), 0u);
  EXPECT_LT(cut["server_ops"].get<uint64_t>(), cut["ops"].get<uint64_t>());
  EXPECT_FALSE(whole.contains("failed")) << whole.dump();
  EXPECT_GE(whole["server_ops"].get<uint64_t>(), whole["ops"].get<uint64_t>());
  EXPECT_DOUBLE_EQ(redis["throughput"]["median"].get<double>(), whole["throughput"].get<double>());
  EXPECT_NE(redis["error"].get<std::string>().find("trial 1 failed"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::testing
