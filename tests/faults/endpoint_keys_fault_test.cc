// A server others use keeps its data: a redis-server holding the user's own keys (strings and
// hashes, in databases 0 and 5, compared byte for byte with DUMP) goes through every benchmark
// command that accepts an endpoint setup (with dfbench's own load and a --command-template
// writing under the run's key), through the commands that refuse one, and through faults:
// dfbench killed mid-run (SIGKILL), the server killed and restarted on its port mid-run, and
// UNLINK, SCAN, INFO or DEL renamed. After each, the user's keys are as they were and no key of
// the run is left, or the run failed non-zero with the prefix and count it left on record (then
// the next command or destroy removes them). A template that would reach beyond the run's keys
// is refused before the first request, and `destroy --force` forgets a prefix whose server is
// gone, saying what may be left where.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <thread>

#include "core/files.h"
#include "dfbench_runner.h"
#include "protocol/server_endpoint.h"
#include "support/test_data.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// db:key -> DUMP of every key in databases 0 and 5.
using Snapshot = std::map<std::string, std::string>;

constexpr const char* kRunPattern = "dfbench:*";
constexpr const char* kRunPrefix = "dfbench:shared:";
constexpr const char* kEndpointUrl = "URL";  // stands for the endpoint's in a command's arguments

// The setup every command but quickstart runs on, and its small loads (CI has two CPUs).
const std::vector<std::string> kOnShared = {"--id",       "shared", "--engines", "redis",
                                            "--cooldown", "0s",     "--output",  "json"};
const std::vector<std::string> kMemtierLoad = {"--memtier-threads", "1", "--memtier-clients", "2"};
const std::vector<std::string> kSmallRun = {"--memtier-requests", "200", "--warmup-requests", "0",
                                            "--trials",           "1"};
const std::vector<std::string> kSmallCommandRun = {"--key-maximum", "100", "--test-time", "1",
                                                   "--warmup-time", "0",   "--trials",    "1"};
const std::vector<std::string> kSmallSweepRun = {
    "--slo",       "p99<=1us", "--memtier-pipeline", "4", "--key-maximum", "2000",
    "--step-time", "1s",       "--confirm",          "0"};

// A benchmark command run against the server of the user's data.
struct EndpointCommand {
  std::string name;  // the test's name for it
  std::vector<std::string> args;
  bool refused = false;     // refuses an endpoint setup: exit 2, nothing sent
  bool dfly_bench = false;  // drives dfly_bench: skipped, saying so, without it
  std::string own_setup;    // a setup of its own it makes and destroys (quickstart)
};

// gtest shows a parameter by its name.
void PrintTo(const EndpointCommand& command, std::ostream* out) {
  *out << command.name;
}

std::vector<EndpointCommand> EndpointCommands() {
  const auto run_commands =
      Concat(Concat({"run-commands"}, kOnShared), Concat(kMemtierLoad, kSmallCommandRun));
  const auto run_commands_dfly =
      Concat(Concat({"run-commands-dfly"}, kOnShared),
             Concat({"--dfly-bench-binary", DflyBenchBinary().string(), "--dfly-bench-threads", "1",
                     "--dfly-bench-conns", "2"},
                    kSmallCommandRun));
  const std::vector<std::string> tmpl = {"--command-template", "HSET __key__ f __data__"};
  return {
      {.name = "Run", .args = Concat(Concat({"run"}, kOnShared), Concat(kMemtierLoad, kSmallRun))},
      {.name = "RunCommands", .args = Concat(run_commands, {"--command", "SET"})},
      {.name = "RunCommandsTemplate", .args = Concat(run_commands, tmpl)},
      {.name = "RunCommandsDfly",
       .args = Concat(run_commands_dfly, {"--command", "SET"}),
       .dfly_bench = true},
      {.name = "RunCommandsDflyTemplate",
       .args = Concat(run_commands_dfly, tmpl),
       .dfly_bench = true},
      {.name = "Sweep",
       .args = Concat(Concat({"sweep"}, kOnShared), Concat(kMemtierLoad, kSmallSweepRun))},
      {.name = "Quickstart",
       .args = Concat(
           Concat({"quickstart", "--id", "qs", "--endpoint", std::string("redis=") + kEndpointUrl,
                   "--engines", "redis", "--cooldown", "0s", "--output", "json"},
                  kMemtierLoad),
           kSmallRun),
       .own_setup = "qs"},
      {.name = "RunMemory",
       .args = Concat(Concat({"run-memory"}, kOnShared), {"--snapshot", "none"}),
       .refused = true},
      {.name = "RunReplication",
       .args = {"run-replication", "--id", "shared", "--engines", "redis"},
       .refused = true},
  };
}

class EndpointKeysTest : public ::testing::Test {
 protected:
  // A redis-server with `extra_args`, holding the user's own keys, and a setup of it. `persist`:
  // the server keeps its data in an append-only file of a directory of the test's, so that it
  // comes back with it when restarted on its port (RestartServer).
  void StartWithUserData(std::vector<std::string> extra_args = {}, bool persist = false) {
    if (persist) {
      data_dir_.emplace("endpoint-keys-data");
      extra_args.insert(extra_args.end(), {"--dir", data_dir_->path().string(), "--appendonly",
                                           "yes", "--appendfsync", "always"});
    }
    server_args_ = extra_args;
    auto server = TestServer::StartRedis(extra_args);
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    auto client = server_->Client();
    for (const char* db : {"0", "5"}) {
      ASSERT_TRUE(client.Command({"SELECT", db}));
      for (int i = 1; i <= 50; ++i) {
        const std::string n = std::to_string(i);
        ASSERT_TRUE(client.Command({"SET", "user:" + n, "value " + n + " of db " + db}));
        ASSERT_TRUE(client.Command({"HSET", "profile:" + n, "name", "n" + n, "db", db}));
      }
    }
    before_ = Snapshot_();
    ASSERT_EQ(before_.size(), 200u);
    ASSERT_NO_FATAL_FAILURE(dfb_.RunOk({"setup", "--id", "shared", "--endpoint", Url()}));
  }

  // Kills the server (SIGKILL) and starts it again on its port, with its data.
  void RestartServer() {
    server_->Stop();
    ASSERT_NO_FATAL_FAILURE(StartServerAgain());
  }
  // Starts the stopped server again on its port, with its data.
  void StartServerAgain() {
    const int port = server_->port();
    auto server = TestServer::StartRedisOn(port, server_args_);
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
  }

  std::string Port() const { return std::to_string(server_->port()); }
  std::string Url() const { return "redis=redis://127.0.0.1:" + Port(); }

  // `args` with the endpoint's URL in place of kEndpointUrl.
  std::vector<std::string> AtTheEndpoint(std::vector<std::string> args) const {
    for (auto& arg : args) {
      if (const size_t at = arg.find(kEndpointUrl); at != std::string::npos) {
        arg = arg.substr(0, at) + "redis://127.0.0.1:" + Port();
      }
    }
    return args;
  }

  Snapshot Snapshot_() const {
    Snapshot all;
    auto client = server_->Client();
    for (const char* db : {"0", "5"}) {
      EXPECT_TRUE(client.Command({"SELECT", db}));
      auto keys = client.Command({"KEYS", "*"});
      EXPECT_TRUE(keys);
      if (!keys) return all;
      for (const auto& key : keys->elements) {
        if (key.str.rfind("dfbench:", 0) == 0) continue;
        auto dump = client.Command({"DUMP", key.str});
        EXPECT_TRUE(dump);
        if (dump) all[std::string(db) + ":" + key.str] = dump->str;
      }
    }
    return all;
  }

  // The keys of runs on the server, in database 0 (the renamed KEYS of a test is asked under
  // its own name).
  size_t RunKeys(const std::string& keys_command = "KEYS") const {
    auto reply = server_->Client().Command({keys_command, kRunPattern});
    EXPECT_TRUE(reply && !reply->is_error()) << (reply ? reply->str : reply.error().message);
    return reply ? reply->elements.size() : 0;
  }

  json RecordedRunKeys() const {
    return dfb_.State("shared")["provider_data"]["endpoints"]["redis"].value("run_keys",
                                                                             json::array());
  }

  // The user's keys are as they were, no key of a run is left and none is on record.
  void ExpectUntouchedAndClean(const std::string& after) {
    EXPECT_EQ(Snapshot_(), before_) << "after " << after;
    EXPECT_EQ(RunKeys(), 0u) << "after " << after;
    EXPECT_EQ(RecordedRunKeys(), json::array()) << "after " << after;
  }

  // After a run through a fault, ended with `status`: the user's keys are as they were, and
  // either the run succeeded and left nothing, or it failed non-zero (its trial cut short, say)
  // and every key it left is under a prefix on record, which the next run then removes.
  void ExpectKeptAndCleanedOrRecorded(const core::ExitStatus& status, const std::string& after) {
    EXPECT_EQ(status.signal, 0) << after;
    EXPECT_EQ(Snapshot_(), before_) << "after " << after;
    if (status.code == 0) {
      ExpectUntouchedAndClean(after);
      return;
    }
    std::vector<std::string> prefixes;
    for (const json& run : RecordedRunKeys()) {
      prefixes.push_back(run["prefix"].get<std::string>());
      EXPECT_EQ(prefixes.back().rfind(kRunPrefix, 0), 0u) << prefixes.back();
    }
    auto left = server_->Client().Command({"KEYS", kRunPattern});
    ASSERT_TRUE(left);
    for (const auto& key : left->elements) {
      EXPECT_TRUE(std::any_of(prefixes.begin(), prefixes.end(),
                              [&](const std::string& p) { return key.str.rfind(p, 0) == 0; }))
          << after << ": " << key.str << " is under no recorded prefix\n"
          << dfb_.BackgroundErrTail();
    }
    // Keys left are said to be left.
    if (!left->elements.empty()) {
      EXPECT_NE(
          core::ReadFile(dfb_.home() / "bg.stderr").value_or("").find("removing the run's keys: "),
          std::string::npos)
          << after << "\n"
          << dfb_.BackgroundErrTail();
    }
    auto next = dfb_.Run(Concat(Concat({"run"}, kOnShared), Concat(kMemtierLoad, kSmallRun)));
    EXPECT_EQ(next.code, 0) << next.err;
    ExpectUntouchedAndClean("the run after " + after);
  }

  // Starts `args` in the background and waits until `at_least` keys of the run are on the
  // server.
  core::Process StartAndWaitForKeys(const std::vector<std::string>& args, size_t at_least) {
    core::Process run = dfb_.Start(args);
    EXPECT_TRUE(WaitUntil([&] { return RunKeys() >= at_least; }, std::chrono::seconds(60),
                          std::to_string(at_least) + " of the run's keys on the server"))
        << dfb_.BackgroundErrTail();
    return run;
  }

  // Starts `args` (a long run) in the background and kills it (SIGKILL) once its keys are on
  // the server; the setup then records their prefix.
  void KillMidway(const std::vector<std::string>& args) {
    core::Process run = StartAndWaitForKeys(args, 50);
    ASSERT_FALSE(HasFailure());
    run.Signal(SIGKILL);
    ASSERT_TRUE(run.WaitFor(std::chrono::seconds(10)));
    // The kill leaves its keys, and the setup knows their prefix.
    EXPECT_GE(RunKeys(), 50u);
    const json recorded = RecordedRunKeys();
    ASSERT_EQ(recorded.size(), 1u) << recorded;
    EXPECT_EQ(recorded[0]["prefix"].get<std::string>().rfind(kRunPrefix, 0), 0u);
  }
  void KillARunMidway() {
    KillMidway(Concat(Concat({"run"}, kOnShared),
                      Concat(kMemtierLoad, {"--memtier-requests", "100000000", "--warmup-requests",
                                            "0", "--trials", "1"})));
  }

  std::vector<std::string> SmallCommands(const std::vector<std::string>& command) const {
    return Concat(
        Concat(Concat({"run-commands"}, kOnShared), Concat(kMemtierLoad, kSmallCommandRun)),
        command);
  }

  DfbenchRunner dfb_{"endpoint-keys"};
  std::optional<ScopedTempDir> data_dir_;
  std::vector<std::string> server_args_;
  std::optional<TestServer> server_;
  Snapshot before_;
};

// Each benchmark command that accepts an endpoint setup, and each that refuses one.
class EndpointCommandTest : public EndpointKeysTest,
                            public ::testing::WithParamInterface<EndpointCommand> {
 protected:
  // Runs the command on a server started with `server_args` and checks that it kept the user's
  // data and left no key (a refusing command: exit 2 in one line, before any request).
  void RunKeepsTheUsersData(const std::vector<std::string>& server_args) {
    const EndpointCommand& command = GetParam();
    if (command.dfly_bench) {
      if (auto why = DflyBenchSkipReason(); !why.empty()) GTEST_SKIP() << why;
    }
    ASSERT_NO_FATAL_FAILURE(StartWithUserData(server_args));
    auto r = dfb_.Run(AtTheEndpoint(command.args));
    if (command.refused) {
      EXPECT_EQ(r.code, 2) << r.err;
      EXPECT_EQ(CountLines(r.err), 1) << r.err;
      EXPECT_NE(r.err.find("which an endpoint setup never does"), std::string::npos) << r.err;
      EXPECT_EQ(dfb_.State("shared")["status"], "ready");
    } else {
      const json out = SucceededJson(r);
      EXPECT_EQ(out.value("status", ""), "completed") << r.out;
      if (!command.own_setup.empty()) {
        EXPECT_EQ(dfb_.State(command.own_setup)["status"], "destroyed");
      }
    }
    ExpectUntouchedAndClean(command.name);
  }
};

TEST_P(EndpointCommandTest, KeepsTheUsersDataAndLeavesNoKey) {
  RunKeepsTheUsersData({});
}

// UNLINK and SCAN renamed: the cleanup falls back to DEL and KEYS. INFO renamed: the version is
// unknown and the server's own operation count cannot be read, neither fatal.
TEST_P(EndpointCommandTest, KeepsTheUsersDataWithUnlinkScanAndInfoRenamed) {
  RunKeepsTheUsersData({"--rename-command", "UNLINK", "", "--rename-command", "SCAN", "",
                        "--rename-command", "INFO", ""});
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, EndpointCommandTest, ::testing::ValuesIn(EndpointCommands()),
                         [](const auto& info) { return info.param.name; });

TEST_F(EndpointKeysTest, RunCommandsKeepsTheUsersDataWhateverItsCommand) {
  ASSERT_NO_FATAL_FAILURE(StartWithUserData());
  for (const auto& command :
       std::vector<std::vector<std::string>>{{"--command", "GET"},
                                             {"--command", "HSET"},
                                             {"--command-template", "SET __key__ __data__"},
                                             {"--command-template", "HGET __key__ f",
                                              "--preload-template", "HSET __key__ f __data__"},
                                             {"--command-template", "PING"}}) {
    auto commands = dfb_.Run(SmallCommands(command));
    EXPECT_EQ(commands.code, 0) << command.back() << "\n" << commands.err;
    ExpectUntouchedAndClean(command.back());
  }
}

TEST_F(EndpointKeysTest, CommandsThatReachBeyondTheRunsKeysAreRefusedBeforeAnyRequest) {
  ASSERT_NO_FATAL_FAILURE(StartWithUserData());
  const auto maxmemory = server_->Client().Command({"CONFIG", "GET", "maxmemory"})->elements;
  struct Refusal {
    std::string tmpl;
    std::string why;
  };
  for (const auto& [tmpl, why] : std::vector<Refusal>{
           {"FLUSHDB", "marks it write"},
           {"FLUSHALL", "marks it write"},
           {"SWAPDB 0 5", "marks it write"},
           {"CONFIG SET maxmemory 1mb", "marks it admin"},
           {"SCRIPT FLUSH", "(@scripting)"},
           {"MOVE __key__ 5", "it takes a database"},
           {"COPY __key__ __key__:copy DB 5", "it takes a database"},
           {"DEL user:42 __key__", "names the key \"user:42\", outside the run's keys"},
           {"HSET profile:__key__ f __data__", "names the key \"profile:dfbench:shared:"},
           {"EVAL \"return redis.call('del','user:1')\" 1 __key__", "(@scripting)"}}) {
    const uint64_t sets = server_->Calls("set");
    auto refused = dfb_.Run(SmallCommands({"--command-template", tmpl}));
    EXPECT_EQ(refused.code, 2) << tmpl << "\n" << refused.err;
    EXPECT_EQ(CountLines(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find("\"" + tmpl + "\" is refused on redis at 127.0.0.1:" + Port()),
              std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find(why), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("a setup made with --allow-flush"), std::string::npos)
        << refused.err;
    EXPECT_EQ(server_->Calls("set"), sets) << tmpl << ": no request of the run was sent";
    ExpectUntouchedAndClean(tmpl);
  }
  // Refused as a preload too.
  auto preload = dfb_.Run(SmallCommands({"--command-template", "GET __key__", "--preload-template",
                                         "MSET __key__ __data__ user:7 x"}));
  EXPECT_EQ(preload.code, 2) << preload.err;
  EXPECT_NE(preload.err.find("\"MSET __key__ __data__ user:7 x\" is refused"), std::string::npos)
      << preload.err;
  EXPECT_EQ(server_->Client().Command({"CONFIG", "GET", "maxmemory"})->elements[1].str,
            maxmemory[1].str);
  EXPECT_EQ(server_->Calls("flushdb") + server_->Calls("flushall") + server_->Calls("swapdb") +
                server_->Calls("del") + server_->Calls("eval"),
            0u);
  ExpectUntouchedAndClean("the preload");
}

TEST_F(EndpointKeysTest, ATemplateTheServerCannotCheckIsRefused) {
  // A server without COMMAND cannot say what a template's keys are.
  ASSERT_NO_FATAL_FAILURE(StartWithUserData({"--rename-command", "COMMAND", ""}));
  auto refused = dfb_.Run(SmallCommands({"--command-template", "SET __key__ __data__ EX 100"}));
  EXPECT_EQ(refused.code, 2) << refused.err;
  EXPECT_EQ(CountLines(refused.err), 1) << refused.err;
  EXPECT_NE(refused.err.find("\"SET __key__ __data__ EX 100\" cannot be checked against redis"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("a setup made with --allow-flush"), std::string::npos) << refused.err;
  // dfbench's own commands need no check: their only key is the run's.
  auto run = dfb_.Run(Concat(Concat({"run"}, kOnShared), Concat(kMemtierLoad, kSmallRun)));
  EXPECT_EQ(run.code, 0) << run.err;
  ExpectUntouchedAndClean("run");
}

TEST_F(EndpointKeysTest, AKilledRunsKeysAreRemovedByTheNextCommandAndByDestroy) {
  ASSERT_NO_FATAL_FAILURE(StartWithUserData());
  ASSERT_NO_FATAL_FAILURE(KillARunMidway());
  // info only reads: it shows the prefix on record.
  auto info = dfb_.Run({"info", "--id", "shared"});
  EXPECT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("Run keys: redis at redis://127.0.0.1:" + Port() + " under \"" +
                          RecordedRunKeys()[0]["prefix"].get<std::string>() + "\""),
            std::string::npos)
      << info.out;
  // The next run finds the dead one, removes its keys and forgets its prefix.
  auto next = dfb_.Run(Concat(Concat({"run"}, kOnShared), Concat(kMemtierLoad, kSmallRun)));
  EXPECT_EQ(next.code, 0) << next.err;
  EXPECT_NE(next.err.find("died while benchmarking"), std::string::npos) << next.err;
  ExpectUntouchedAndClean("the run after the killed one");

  ASSERT_NO_FATAL_FAILURE(KillARunMidway());
  auto destroyed = dfb_.Run({"destroy", "--id", "shared"});
  EXPECT_EQ(destroyed.code, 0) << destroyed.err;
  EXPECT_EQ(Snapshot_(), before_);
  EXPECT_EQ(RunKeys(), 0u);
}

TEST_F(EndpointKeysTest, AKilledRunCommandsOrSweepsKeysAreRemovedByTheNextCommandAndByDestroy) {
  ASSERT_NO_FATAL_FAILURE(StartWithUserData());
  // run-commands killed: the next run-commands removes its keys.
  ASSERT_NO_FATAL_FAILURE(
      KillMidway(Concat(Concat(Concat({"run-commands"}, kOnShared), kMemtierLoad),
                        {"--key-maximum", "1000", "--test-time", "600", "--warmup-time", "0",
                         "--trials", "1", "--command-template", "HSET __key__ f __data__"})));
  auto next = dfb_.Run(SmallCommands({"--command", "SET"}));
  EXPECT_EQ(next.code, 0) << next.err;
  EXPECT_NE(next.err.find("died while benchmarking"), std::string::npos) << next.err;
  ExpectUntouchedAndClean("the run-commands after the killed one");

  // sweep killed (an objective every step meets, so it goes on): destroy removes its keys.
  ASSERT_NO_FATAL_FAILURE(KillMidway(Concat(
      Concat(Concat({"sweep"}, kOnShared), kMemtierLoad),
      {"--slo", "p99<=10s", "--key-maximum", "2000", "--step-time", "1s", "--confirm", "0"})));
  auto destroyed = dfb_.Run({"destroy", "--id", "shared"});
  EXPECT_EQ(destroyed.code, 0) << destroyed.err;
  EXPECT_EQ(dfb_.State("shared")["status"], "destroyed");
  EXPECT_EQ(Snapshot_(), before_);
  EXPECT_EQ(RunKeys(), 0u);
}

// The server killed (SIGKILL) and restarted on its port while a run writes: its append-only file
// brings back the user's keys and the run's written so far. The run either removes its keys or
// fails non-zero with their prefix on record.
TEST_F(EndpointKeysTest, AServerKilledAndRestartedMidRunKeepsTheUsersData) {
  ASSERT_NO_FATAL_FAILURE(StartWithUserData({}, /*persist=*/true));
  const std::vector<std::string> three_seconds = {"--test-time", "3",        "--warmup-time",
                                                  "0",           "--trials", "1"};
  for (const auto& [name, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"run", Concat(Concat(Concat({"run"}, kOnShared), kMemtierLoad),
                          {"--test-time", "3", "--warmup-requests", "0", "--trials", "1"})},
           {"run-commands",
            Concat(Concat(Concat({"run-commands"}, kOnShared), kMemtierLoad),
                   Concat(three_seconds, {"--key-maximum", "1000", "--command-template",
                                          "HSET __key__ f __data__"}))},
           {"sweep", Concat(Concat(Concat({"sweep"}, kOnShared), kMemtierLoad), kSmallSweepRun)}}) {
    core::Process run = StartAndWaitForKeys(args, 50);
    ASSERT_FALSE(HasFailure()) << name;
    ASSERT_NO_FATAL_FAILURE(RestartServer());
    const auto status = run.WaitFor(std::chrono::seconds(120));
    ASSERT_TRUE(status) << name << " did not end\n" << dfb_.BackgroundErrTail();
    ASSERT_NO_FATAL_FAILURE(ExpectKeptAndCleanedOrRecorded(*status, name + " through a restart"));
  }
}

// The server killed mid-run and started again only once the run has ended: the run cannot
// remove its keys, fails non-zero and leaves their prefix on record; the next run removes them.
TEST_F(EndpointKeysTest, AServerDownUntilTheRunEndsLeavesTheRunsKeysOnRecord) {
  ASSERT_NO_FATAL_FAILURE(StartWithUserData({}, /*persist=*/true));
  core::Process run =
      StartAndWaitForKeys(Concat(Concat(Concat({"run"}, kOnShared), kMemtierLoad),
                                 {"--test-time", "60", "--warmup-requests", "0", "--trials", "1"}),
                          50);
  ASSERT_FALSE(HasFailure());
  server_->Stop();
  const auto status = run.WaitFor(std::chrono::seconds(120));
  ASSERT_TRUE(status) << "the run did not end\n" << dfb_.BackgroundErrTail();
  EXPECT_NE(status->code, 0) << dfb_.BackgroundErrTail();
  ASSERT_NO_FATAL_FAILURE(StartServerAgain());
  EXPECT_GT(RunKeys(), 0u) << "the append-only file brings the run's keys back";
  const json recorded = RecordedRunKeys();
  ASSERT_EQ(recorded.size(), 1u) << recorded;
  EXPECT_NE(recorded[0]["error"].get<std::string>().find("127.0.0.1:" + Port()), std::string::npos)
      << recorded;
  ASSERT_NO_FATAL_FAILURE(ExpectKeptAndCleanedOrRecorded(*status, "a run whose server went away"));
}

TEST_F(EndpointKeysTest, RemovalFallsBackToDelAndKeysWhereUnlinkAndScanAreRenamed) {
  ASSERT_NO_FATAL_FAILURE(
      StartWithUserData({"--rename-command", "UNLINK", "", "--rename-command", "SCAN", ""}));
  const uint64_t keys_asked = server_->Calls("keys");
  auto run = dfb_.Run(Concat(Concat({"run"}, kOnShared), Concat(kMemtierLoad, kSmallRun)));
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("engines")) << run.err;
  EXPECT_GT(server_->Calls("del"), 0u);
  EXPECT_GT(server_->Calls("keys"), keys_asked);
  auto commands = dfb_.Run(SmallCommands({"--command", "LPOP"}));
  EXPECT_EQ(commands.code, 0) << commands.err;
  ExpectUntouchedAndClean("runs with UNLINK and SCAN renamed");
  // A killed run's keys too, by the next command.
  ASSERT_NO_FATAL_FAILURE(KillARunMidway());
  auto next = dfb_.Run(SmallCommands({"--command", "SET"}));
  EXPECT_EQ(next.code, 0) << next.err;
  ExpectUntouchedAndClean("the run after the killed one, with UNLINK and SCAN renamed");
}

TEST_F(EndpointKeysTest, ARemovalTheServerRefusesFailsTheRunAndIsRecorded) {
  ASSERT_NO_FATAL_FAILURE(
      StartWithUserData({"--rename-command", "UNLINK", "", "--rename-command", "DEL", ""}));
  auto run = dfb_.Run(Concat(Concat({"run"}, kOnShared), Concat(kMemtierLoad, kSmallRun)));
  EXPECT_EQ(run.code, 1) << run.err;
  const size_t left = RunKeys();
  ASSERT_GT(left, 0u);
  const std::string said = std::to_string(left) + " key(s) of the run left under \"" + kRunPrefix;
  EXPECT_NE(run.err.find(said), std::string::npos) << run.err;
  const json out = json::parse(run.out, nullptr, false);
  ASSERT_TRUE(out.is_object()) << run.out;
  EXPECT_NE(out["engines"][0]["error"].get<std::string>().find(said), std::string::npos)
      << out["engines"][0]["error"];
  const json recorded = RecordedRunKeys();
  ASSERT_EQ(recorded.size(), 1u) << recorded;
  EXPECT_EQ(recorded[0]["keys_left"], left);
  EXPECT_NE(recorded[0]["error"].get<std::string>().find("DEL answered"), std::string::npos);
  EXPECT_EQ(Snapshot_(), before_);
  auto info = dfb_.Run({"info", "--id", "shared"});
  EXPECT_NE(info.out.find(std::to_string(left) + " key(s) left under \"" + kRunPrefix),
            std::string::npos)
      << info.out;

  // destroy cannot remove them either: it fails and the setup keeps the prefix.
  auto destroyed = dfb_.Run({"destroy", "--id", "shared"});
  EXPECT_EQ(destroyed.code, 1) << destroyed.err;
  EXPECT_NE(destroyed.err.find("the setup keeps the prefix"), std::string::npos) << destroyed.err;
  EXPECT_NE(destroyed.err.find("dfbench destroy --id shared --force forgets it"), std::string::npos)
      << destroyed.err;
  EXPECT_EQ(dfb_.State("shared")["status"], "ready");
  EXPECT_EQ(RecordedRunKeys().size(), 1u);

  // --force destroys it, saying how many keys it leaves under which prefix where.
  const std::string prefix = RecordedRunKeys()[0]["prefix"].get<std::string>();
  auto forced = dfb_.Run({"destroy", "--id", "shared", "--force"});
  EXPECT_EQ(forced.code, 0) << forced.err;
  EXPECT_NE(forced.err.find("warning: redis at redis://127.0.0.1:" + Port() + " may still hold " +
                            std::to_string(left) + " key(s) under \"" + prefix + "\""),
            std::string::npos)
      << forced.err;
  EXPECT_EQ(dfb_.State("shared")["status"], "destroyed");
  EXPECT_EQ(Snapshot_(), before_);
  EXPECT_EQ(RunKeys(), left);
}

// The server of a killed run's keys is gone (killed, not restarted): destroy keeps the setup and
// its prefix; destroy --force destroys it, naming in one line the prefix and the URL, the count
// unknown.
TEST_F(EndpointKeysTest, DestroyForceForgetsThePrefixOfAServerThatIsGone) {
  ASSERT_NO_FATAL_FAILURE(StartWithUserData());
  ASSERT_NO_FATAL_FAILURE(KillARunMidway());
  const std::string prefix = RecordedRunKeys()[0]["prefix"].get<std::string>();
  const std::string url = "redis://127.0.0.1:" + Port();
  server_->Stop();

  auto refused = dfb_.Run({"destroy", "--id", "shared"});
  EXPECT_NE(refused.code, 0) << refused.err;
  EXPECT_NE(refused.err.find("the setup keeps the prefix"), std::string::npos) << refused.err;
  EXPECT_EQ(dfb_.State("shared")["status"], "ready");
  ASSERT_EQ(RecordedRunKeys().size(), 1u);
  EXPECT_EQ(RecordedRunKeys()[0]["prefix"], prefix);

  auto forced = dfb_.Run({"destroy", "--id", "shared", "--force"});
  EXPECT_EQ(forced.code, 0) << forced.err;
  int lines = 0;
  std::string said;
  for (size_t at = 0; at < forced.err.size();) {
    const size_t end = forced.err.find('\n', at);
    const std::string line =
        forced.err.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.find("warning:") != std::string::npos) {
      ++lines;
      said = line;
    }
    at = end == std::string::npos ? forced.err.size() : end + 1;
  }
  EXPECT_EQ(lines, 1) << forced.err;
  EXPECT_NE(said.find("redis at " + url + " may still hold an unknown number of keys under \"" +
                      prefix + "\""),
            std::string::npos)
      << forced.err;
  EXPECT_EQ(dfb_.State("shared")["status"], "destroyed");
  EXPECT_EQ(RecordedRunKeys(), json::array());
  // Destroyed once: again is a note.
  EXPECT_EQ(dfb_.Run({"destroy", "--id", "shared"}).code, 0);
}

// Dragonfly has no COMMAND GETKEYS: a template's keys are read at the positions its COMMAND INFO
// gives.
TEST(EndpointKeysDragonflyTest, KeysAreCheckedAtTheirPositionsWithoutCommandGetkeys) {
  if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
  ScopedTempDir dir("endpoint-keys-dragonfly");
  const int port = FreePort();
  auto dragonfly = core::Spawn(
      {.argv = {DragonflyBinary().string(), "--port", std::to_string(port), "--bind", "127.0.0.1",
                "--proactor_threads", "1", "--dbfilename", "", "--dir", dir.path().string()},
       .stdout_path = (dir.path() / "dragonfly.log").string(),
       .stderr_path = (dir.path() / "dragonfly.log").string()});
  ASSERT_TRUE(dragonfly) << dragonfly.error().message;
  const protocol::ServerEndpoint at{.address = "127.0.0.1", .port = port};
  std::optional<protocol::BlockingClient> client;
  ASSERT_TRUE(WaitUntil(
      [&] {
        if (auto c = protocol::ConnectTo(at, std::chrono::seconds(1)))
          client.emplace(std::move(*c));
        return client.has_value();
      },
      std::chrono::seconds(20), "dragonfly to answer on port " + std::to_string(port)));
  ASSERT_TRUE(client->Command({"SET", "user:42", "theirs"}));

  DfbenchRunner dfb("endpoint-keys-dragonfly");
  ASSERT_NO_FATAL_FAILURE(dfb.RunOk({"setup", "--id", "df", "--endpoint",
                                     "dragonfly=redis://127.0.0.1:" + std::to_string(port)}));
  auto commands = [&](const std::string& tmpl) {
    return dfb.Run({"run-commands",
                    "--id",
                    "df",
                    "--engines",
                    "dragonfly",
                    "--dragonfly_num_shards",
                    "0",
                    "--command-template",
                    tmpl,
                    "--key-maximum",
                    "50",
                    "--test-time",
                    "1",
                    "--warmup-time",
                    "0",
                    "--trials",
                    "1",
                    "--memtier-threads",
                    "1",
                    "--memtier-clients",
                    "1",
                    "--cooldown",
                    "0s",
                    "--output",
                    "json"});
  };
  auto outside = commands("DEL user:42 __key__");
  EXPECT_EQ(outside.code, 2) << outside.err;
  EXPECT_NE(outside.err.find("names the key \"user:42\", outside the run's keys"),
            std::string::npos)
      << outside.err;
  auto flush = commands("FLUSHDB");
  EXPECT_EQ(flush.code, 2) << flush.err;
  EXPECT_NE(flush.err.find("COMMAND INFO marks it write"), std::string::npos) << flush.err;
  auto inside = commands("SET __key__ __data__ EX 100");
  EXPECT_EQ(inside.code, 0) << inside.err;
  EXPECT_EQ(client->Command({"GET", "user:42"})->str, "theirs");
  EXPECT_EQ(client->Command({"DBSIZE"})->integer, 1);
}

}  // namespace
}  // namespace dfbench::testing
