// A server that goes away mid-run: killed (SIGKILL), stopped (SIGSTOP) or killed and restarted
// on its port, under `dfbench loadgen`, `run`, `run-commands` and `sweep`. The generator counts
// the requests lost with their connections as errors, says the run ended early and exits 5;
// `run` and `run-commands` fail the trial that was cut, leave it out of the medians and exit 1;
// `sweep` fails the step and the engine's sweep, reports no rate, and exits 1. Every fault comes
// once the server has run some of the load, every wait has a deadline; nothing is left running.
// No assertion is on a duration: a command that did not end on its own is the one its deadline
// cut, which no exit code or reason asserted here can come from.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <optional>
#include <ostream>
#include <regex>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "support/processes.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
// SETs and GETs the server runs before a fault: the load is under way, in its measured window.
constexpr uint64_t kCallsBeforeTheFault = 500;

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

  // The SETs and GETs the server has run.
  uint64_t Calls() const { return server_->Calls("set") + server_->Calls("get"); }

  // Waits until the server has run kCallsBeforeTheFault more SETs and GETs than `before`.
  ::testing::AssertionResult LoadRan(uint64_t before) const {
    return WaitUntil([&] { return Calls() >= before + kCallsBeforeTheFault; },
                     std::chrono::seconds(60),
                     std::to_string(kCallsBeforeTheFault) + " SETs and GETs on the server");
  }

  // `dfbench loadgen` against the server for `length` (loadgen's flags), with `fault` done once
  // the load ran a while; the result and the JSON report.
  // NOLINTNEXTLINE(bugprone-exception-escape): its nlohmann::json member, as results::EngineResult.
  struct Loadgen {
    CliResult result;
    json report;
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
    const uint64_t before = Calls();
    core::Process run = dfb_.Start(args);
    EXPECT_TRUE(LoadRan(before)) << Text(dfb_.home() / "bg.stderr");
    fault();
    Loadgen out;
    const auto status = run.WaitFor(std::chrono::seconds(40));
    out.result.code = !status ? -1 : status->signal ? 128 + status->signal : status->code;
    out.result.out = Text(dfb_.home() / "bg.stdout");
    out.result.err = Text(dfb_.home() / "bg.stderr");
    auto text = core::ReadFile(report);
    if (text) out.report = json::parse(*text, nullptr, false);
    return out;
  }

  // What every lost server leaves in the generator's report and exit. `least_window_ms`: what
  // the window lasts at least though the load was cut inside it (its test time, or the 10 s a
  // run by requests waits for a reply), known exactly however slow the machine.
  static void ExpectEndedEarly(const Loadgen& run, const std::string& reason,
                               double least_window_ms) {
    EXPECT_EQ(run.result.code, 5) << run.result.err;
    EXPECT_EQ(CountLines(run.result.err), 1) << run.result.err;
    EXPECT_NE(run.result.err.find("the run ended early: " + reason), std::string::npos)
        << run.result.err;
    ASSERT_TRUE(run.report.is_object()) << run.result.err;
    const json& d = run.report["dfbench"];
    ASSERT_TRUE(d["ended_early"].is_object()) << d.dump();
    EXPECT_NE(d["ended_early"]["reason"].get<std::string>().find(reason), std::string::npos);
    // Cut after the window began, and the window still lasted its whole length.
    EXPECT_GT(d["ended_early"]["at_sec"].get<double>(), 0);
    EXPECT_GE(run.report["ALL STATS"]["Runtime"]["Total duration"].get<double>(), least_window_ms);
    EXPECT_GT(d["errors"].get<uint64_t>(), 0u);
    EXPECT_GT(d["lost_requests"].get<uint64_t>(), 0u);
    EXPECT_GE(d["section_errors"]["Totals"].get<uint64_t>(), d["lost_requests"].get<uint64_t>());
    EXPECT_NE(run.result.out.find("Ended early: "), std::string::npos) << run.result.out;
  }

  std::optional<TestServer> server_;
  DfbenchRunner dfb_{"lost-server"};
  ScopedTempDir dir_{"lost-server"};
};

// Killed mid-run: ops/s is over the whole window the run took (ExpectEndedEarly: it ran past the
// cut), not over the part the server answered.
TEST_F(LostServerTest, LoadgenAgainstAKilledServerCountsTheLossAndExits5) {
  const auto run = RunLoadgen({"--test-time", "4s"}, [&] { server_->Stop(); });
  ExpectEndedEarly(run, "a connection was lost", 4000);
  EXPECT_GT(run.report["dfbench"]["connection_errors"].get<uint64_t>(), 0u);
  const json& all = run.report["ALL STATS"];
  const double duration_ms = all["Runtime"]["Total duration"].get<double>();
  const double count = all["Totals"]["Count"].get<double>();
  EXPECT_NEAR(all["Totals"]["Ops/sec"].get<double>(), count / (duration_ms / 1000), 1);
}

// A stopped server keeps its sockets: nothing fails, replies just stop. A timed run ends at
// its test time and drain; a run by requests ends 10 s after the last reply. Either ends on its
// own (exit 5 and the reason), as the server never answers again while it runs.
TEST_F(LostServerTest, LoadgenAgainstAStoppedServerEndsByItsOwnDeadline) {
  Continued continued{server_->pid()};
  const auto timed = RunLoadgen({"--test-time", "3s"}, [&] { kill(server_->pid(), SIGSTOP); });
  ExpectEndedEarly(timed, "the server stopped answering", 3000);
  kill(server_->pid(), SIGCONT);

  const auto counted = RunLoadgen({"-n", "100000000"}, [&] { kill(server_->pid(), SIGSTOP); });
  ExpectEndedEarly(counted, "the server stopped answering (no reply for 10 s)", 10'000);
}

// Killed and back on its port: the clients reconnect and the load goes on, but the requests in
// flight were lost and the run is not a whole one. (The kill closes every connection at once,
// however soon the server is back.)
TEST_F(LostServerTest, LoadgenAgainstARestartedServerReconnectsAndStillExits5) {
  const int port = server_->port();
  const auto run = RunLoadgen({"--test-time", "4s"}, [&] {
    server_->Stop();
    auto again = TestServer::StartRedisOn(port);
    ASSERT_TRUE(again) << again.error().message;
    server_.emplace(std::move(*again));
  });
  ExpectEndedEarly(run, "a connection was lost", 4000);
  EXPECT_GT(run.report["dfbench"]["reconnects"].get<uint64_t>(), 0u);
  EXPECT_GT(Calls(), 0u);  // the load went on
}

// memtier's flags: each of the 4 connections, lost, tries twice 1 s apart (factor 0), is
// refused twice and given up, so a run by requests ends on its own, long before the 10 s our
// default would wait, with memtier's count of connection errors: 4 losses and 8 refusals.
TEST_F(LostServerTest, LoadgenWithMaxReconnectAttemptsGivesUpAfterThem) {
  const auto run = RunLoadgen({"-n", "100000000", "--reconnect-on-error",
                               "--max-reconnect-attempts=2", "--reconnect-backoff-factor=0"},
                              [&] { server_->Stop(); });
  // The two waits of 1 s each come after the cut, inside the window.
  ExpectEndedEarly(run, "a connection was lost", 2000);
  EXPECT_EQ(run.report["dfbench"]["connection_errors"], 12);
  EXPECT_EQ(run.report["ALL STATS"]["Totals"]["Connection Errors"], 12);
  EXPECT_EQ(run.report["dfbench"]["reconnects"], 0);
}

// ---- run, run-commands and sweep on an endpoint setup whose server the test owns ----

enum class Fault { kKilled, kStopped, kRestarted };

struct ScenarioCase {
  const char* name;     // the test's name
  const char* command;  // "run", "run-commands", "sweep"
  Fault fault;
};

std::ostream& operator<<(std::ostream& os, const ScenarioCase& c) {
  return os << c.name;
}

// What the generator says of each fault.
std::string Lost(Fault fault) {
  return fault == Fault::kStopped ? "the server stopped answering" : "a connection was lost";
}

// What a trial's (or step's) reason says of it.
std::string EndedEarly(Fault fault) {
  return "the measured window ended early: " + Lost(fault);
}

// A benchmark command on an endpoint setup; the fault comes once the load ran a while in the
// measured window of trial 1 of 2 (`run`, `run-commands`) or of the first open-loop step
// (`sweep`).
class LostServerScenarioTest : public LostServerTest,
                               public ::testing::WithParamInterface<ScenarioCase> {
 protected:
  // The command line, what stderr says as the window the fault goes into starts, and the
  // directory kind its runs go under.
  struct Command {
    std::vector<std::string> args;
    std::string marker;
    std::string kind;
  };
  static Command CommandOf(const std::string& command) {
    const std::vector<std::string> load = {"--id",
                                           "lost",
                                           "--engines",
                                           "redis",
                                           "--cooldown",
                                           "0s",
                                           "--memtier-threads",
                                           "1",
                                           "--memtier-clients",
                                           "2",
                                           "--output",
                                           "json"};
    Command c;
    if (command == "run") {
      c = {{"run", "--test-time", "3", "--trials", "2", "--warmup-requests", "0"},
           "trial 1/2",
           "benchmarks"};
    } else if (command == "run-commands") {
      c = {{"run-commands", "--command", "SET", "--test-time", "3", "--trials", "2",
            "--warmup-time", "0"},
           "trial 1/2",
           "commands"};
    } else {
      // An objective any step keeps: only the lost server fails one.
      c = {{"sweep", "--slo", "p99<=2s", "--step-time", "3s", "--confirm", "0"},
           "step 2 (ladder)",
           "sweeps"};
    }
    c.args.insert(c.args.end(), load.begin(), load.end());
    return c;
  }

  // The SETs and GETs sent before the measured window, as `err` (the command's stderr, the
  // marker written) gives them: a sweep step's warm-up, a fifth of its 3 s at the rate the
  // marker line names; none for run and run-commands. The open loop never sends early, so once
  // the server ran more than these, the step's window has begun.
  static uint64_t WarmupCalls(const std::string& command, const std::string& err) {
    if (command != "sweep") return 0;
    std::smatch m;
    if (!std::regex_search(err, m, std::regex(R"(step 2 \(ladder\): ([0-9,]+) ops/s)"))) {
      ADD_FAILURE() << "no rate on the step's line: " << err;
      return 0;
    }
    std::string rate = m[1];
    std::erase(rate, ',');
    return std::stoull(rate) * 3 / 5;
  }

  // Does `fault` to the server (on this thread: a server started here dies with it).
  void Inflict(Fault fault) {
    switch (fault) {
      case Fault::kKilled:
        server_->Stop();
        break;
      case Fault::kStopped:
        continued_.pid = server_->pid();
        kill(server_->pid(), SIGSTOP);
        break;
      case Fault::kRestarted: {
        // Back at once: the kill has closed every connection already.
        const int port = server_->port();
        server_->Stop();
        auto again = TestServer::StartRedisOn(port);
        ASSERT_TRUE(again) << again.error().message;
        server_.emplace(std::move(*again));
        break;
      }
    }
  }

  // The engine row of a run's results (run-commands: of its one command).
  static const json& EngineRow(const json& results, const std::string& command) {
    return command == "run-commands" ? results["commands"][0]["engines"][0] : results["engines"][0];
  }

  Continued continued_;
};

TEST_P(LostServerScenarioTest, FailsWithTheReasonCountsTheErrorsAndEnds) {
  const ScenarioCase& c = GetParam();
  const std::string url = "redis://127.0.0.1:" + std::to_string(server_->port());
  ASSERT_NO_FATAL_FAILURE(
      dfb_.RunOk({"setup", "--id", "lost", "--endpoint", url, "--allow-flush"}));
  const Command command = CommandOf(c.command);
  core::Process run = dfb_.Start(command.args);
  ASSERT_TRUE(dfb_.WaitForBackgroundErr(command.marker, std::chrono::seconds(60)))
      << dfb_.BackgroundErrTail();
  const uint64_t warmup = WarmupCalls(c.command, Text(dfb_.home() / "bg.stderr"));
  ASSERT_TRUE(LoadRan(Calls() + warmup)) << dfb_.BackgroundErrTail();
  ASSERT_NO_FATAL_FAILURE(Inflict(c.fault));
  // A stopped server stays stopped: the command must end on its own deadlines.
  const auto status = run.WaitFor(std::chrono::seconds(90));
  ASSERT_TRUE(status) << "still running; " << dfb_.BackgroundErrTail();
  EXPECT_EQ(status->code, 1) << dfb_.BackgroundErrTail();
  EXPECT_TRUE(ProcessesMatching(dfb_.home().string()).empty());

  const json out = json::parse(Text(dfb_.home() / "bg.stdout"), nullptr, false);
  ASSERT_TRUE(out.is_object()) << Text(dfb_.home() / "bg.stdout");
  EXPECT_EQ(out["status"], "failed");
  const fs::path run_dir = dfb_.SetupDir("lost") / command.kind / out["run_id"].get<std::string>();
  const json results = json::parse(Text(run_dir / "results.json"), nullptr, false);
  ASSERT_TRUE(results.is_object()) << run_dir;
  const std::string reason = EndedEarly(c.fault);
  // stdout and results.json say the same.
  for (const json* doc : {&out, &results}) {
    const json& row = EngineRow(*doc, c.command);
    if (std::string(c.command) == "sweep") {
      // The step the server went away in failed with the reason, and the sweep with it: no
      // rate is reported as sustained.
      const json& cut = row["steps"].back();
      EXPECT_EQ(cut["phase"], "ladder") << cut.dump();
      EXPECT_EQ(cut["passed"], false) << cut.dump();
      EXPECT_NE(cut["reason"].get<std::string>().find(reason), std::string::npos) << cut.dump();
      EXPECT_GT(cut["errors"].get<uint64_t>(), 0u) << cut.dump();
      EXPECT_NE(row["error"].get<std::string>().find("step 2: " + reason), std::string::npos)
          << row["error"];
      EXPECT_TRUE(row["found_rate"].is_null()) << row.dump();
      EXPECT_TRUE(row["first_failing_rate"].is_null()) << row.dump();
      EXPECT_EQ(row["steps"].size(), 2u) << row["steps"].dump();
      continue;
    }
    ASSERT_GE(row["trials"].size(), 1u) << row.dump();
    const json& cut = row["trials"][0];
    EXPECT_NE(cut["failed"].get<std::string>().find(reason), std::string::npos) << cut.dump();
    EXPECT_GT(cut["errors"].get<uint64_t>(), 0u) << cut.dump();
    ASSERT_TRUE(cut.contains("server_ops")) << cut.dump();  // null when unknown
    if (c.fault == Fault::kRestarted) {
      // The restarted server counted only since it came back: fewer than were answered (lost
      // work, judged after the window's end); trial 2 ran whole and is the median alone.
      EXPECT_LT(cut["server_ops"].get<uint64_t>(), cut["ops"].get<uint64_t>());
      ASSERT_EQ(row["trials"].size(), 2u) << row.dump();
      const json& whole = row["trials"][1];
      EXPECT_FALSE(whole.contains("failed")) << whole.dump();
      EXPECT_GE(whole["server_ops"].get<uint64_t>(), whole["ops"].get<uint64_t>());
      EXPECT_DOUBLE_EQ(row["throughput"]["median"].get<double>(),
                       whole["throughput"].get<double>());
      EXPECT_NE(row["error"].get<std::string>().find("trial 1 failed: " + reason),
                std::string::npos)
          << row["error"];
    } else {
      // The server is gone, or silent: trial 2 never starts, and the row says why.
      EXPECT_EQ(row["trials"].size(), 1u) << row.dump();
      EXPECT_NE(row["error"].get<std::string>().find("before trial 2"), std::string::npos)
          << row["error"];
      EXPECT_EQ(row["throughput"]["median"].get<double>(), 0) << row.dump();
    }
    // The trial's own report says it too.
    const json raw =
        json::parse(Text(run_dir / cut["raw_file"].get<std::string>()), nullptr, false);
    ASSERT_TRUE(raw.is_object()) << cut["raw_file"];
    EXPECT_NE(raw["dfbench"]["ended_early"]["reason"].get<std::string>().find(Lost(c.fault)),
              std::string::npos)
        << raw["dfbench"].dump();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Commands, LostServerScenarioTest,
    ::testing::Values(ScenarioCase{"RunKilled", "run", Fault::kKilled},
                      ScenarioCase{"RunStopped", "run", Fault::kStopped},
                      ScenarioCase{"RunRestarted", "run", Fault::kRestarted},
                      ScenarioCase{"RunCommandsKilled", "run-commands", Fault::kKilled},
                      ScenarioCase{"RunCommandsStopped", "run-commands", Fault::kStopped},
                      ScenarioCase{"RunCommandsRestarted", "run-commands", Fault::kRestarted},
                      ScenarioCase{"SweepKilled", "sweep", Fault::kKilled},
                      ScenarioCase{"SweepStopped", "sweep", Fault::kStopped},
                      ScenarioCase{"SweepRestarted", "sweep", Fault::kRestarted}),
    [](const ::testing::TestParamInfo<ScenarioCase>& info) { return info.param.name; });

// run-commands on a server whose INFO commandstats the run's user may not read: the counts are
// unknown (null), which judges nothing, and the run passes.
TEST_F(LostServerTest, RunCommandsWithoutTheServersCountRecordsNullAndPasses) {
  auto user = server_->Client().Command(
      {"ACL", "SETUSER", "bench", "on", ">secret", "~*", "&*", "+@all", "-info", "+info|server"});
  ASSERT_TRUE(user && !user->is_error()) << (user ? user->str : user.error().message);
  // Later commands read the endpoint's password from the environment (setup does not keep it).
  struct Password {
    Password() { setenv("DFBENCH_ENDPOINT_PASSWORD", "secret", 1); }
    ~Password() { unsetenv("DFBENCH_ENDPOINT_PASSWORD"); }
  } password;
  const std::string url = "redis://bench:secret@127.0.0.1:" + std::to_string(server_->port());
  ASSERT_NO_FATAL_FAILURE(
      dfb_.RunOk({"setup", "--id", "noinfo", "--endpoint", url, "--allow-flush"}));
  const auto r = dfb_.Run({"run-commands",
                           "--id",
                           "noinfo",
                           "--engines",
                           "redis",
                           "--command",
                           "SET",
                           "--test-time",
                           "1",
                           "--trials",
                           "2",
                           "--warmup-time",
                           "0",
                           "--cooldown",
                           "0s",
                           "--memtier-threads",
                           "1",
                           "--memtier-clients",
                           "2",
                           "--output",
                           "json"},
                          std::chrono::seconds(60));
  ASSERT_EQ(r.code, 0) << r.err;
  const json out = json::parse(r.out);
  const json& row = out["commands"][0]["engines"][0];
  EXPECT_TRUE(row["server_ops"].is_null()) << row.dump();
  ASSERT_EQ(row["trials"].size(), 2u) << row.dump();
  for (const json& t : row["trials"]) {
    ASSERT_TRUE(t.contains("server_ops")) << t.dump();
    EXPECT_TRUE(t["server_ops"].is_null()) << t.dump();
    EXPECT_FALSE(t.contains("failed")) << t.dump();
    EXPECT_GT(t["ops"].get<uint64_t>(), 0u);
  }
}

// run-commands on a server that counts: each trial's count is recorded, the server's at least
// the answered operations (INCR: no preload).
TEST_F(LostServerTest, RunCommandsRecordsEachTrialsServerCount) {
  const std::string url = "redis://127.0.0.1:" + std::to_string(server_->port());
  ASSERT_NO_FATAL_FAILURE(
      dfb_.RunOk({"setup", "--id", "counted", "--endpoint", url, "--allow-flush"}));
  const auto r = dfb_.Run({"run-commands",
                           "--id",
                           "counted",
                           "--engines",
                           "redis",
                           "--command",
                           "INCR",
                           "--test-time",
                           "1",
                           "--trials",
                           "1",
                           "--warmup-time",
                           "0",
                           "--cooldown",
                           "0s",
                           "--memtier-threads",
                           "1",
                           "--memtier-clients",
                           "2",
                           "--output",
                           "json"},
                          std::chrono::seconds(60));
  ASSERT_EQ(r.code, 0) << r.err;
  const json out = json::parse(r.out);
  const json& t = out["commands"][0]["engines"][0]["trials"][0];
  EXPECT_GE(t["server_ops"].get<uint64_t>(), t["ops"].get<uint64_t>()) << t.dump();
  EXPECT_FALSE(t.contains("failed")) << t.dump();
}

}  // namespace
}  // namespace dfbench::testing
