// A server others use keeps its data: on an endpoint without --allow-flush, every command a run
// would send is checked against the server's own key map before the first request; the run's
// prefix is recorded first, so a killed run's keys are removed by the next command or destroy;
// and a removal the server refuses falls back (DEL, KEYS) or fails the run, saying what it left.
// The user's keys (strings and hashes, in databases 0 and 5) are compared byte for byte (DUMP)
// before and after each command.
#include <gtest/gtest.h>
#include <signal.h>

#include <map>
#include <thread>

#include "dfbench_runner.h"
#include "protocol/server_endpoint.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// db:key -> DUMP of every key in databases 0 and 5.
using Snapshot = std::map<std::string, std::string>;

constexpr const char* kRunPattern = "dfbench:*";

class EndpointKeysTest : public ::testing::Test {
 protected:
  // A redis-server with `extra_args`, holding the user's own keys, and a setup of it.
  void StartWithUserData(const std::vector<std::string>& extra_args = {}) {
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
    ASSERT_NO_FATAL_FAILURE(
        dfb_.RunOk({"setup", "--id", "shared", "--endpoint", "redis=redis://127.0.0.1:" + Port()}));
  }

  std::string Port() const { return std::to_string(server_->port()); }

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

  // The keys of runs on the server (the renamed KEYS of a test is asked under its own name).
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

  std::vector<std::string> Small(std::vector<std::string> args) const {
    args.insert(args.end(), {"--id", "shared", "--engines", "redis", "--memtier-threads", "1",
                             "--memtier-clients", "2", "--cooldown", "0s", "--output", "json"});
    return args;
  }
  std::vector<std::string> SmallRun() const {
    return Small({"run", "--memtier-requests", "200", "--warmup-requests", "0", "--trials", "1"});
  }
  std::vector<std::string> SmallCommands(const std::vector<std::string>& command) const {
    auto args = Small({"run-commands", "--key-maximum", "100", "--test-time", "1", "--warmup-time",
                       "0", "--trials", "1"});
    args.insert(args.end(), command.begin(), command.end());
    return args;
  }

  // Starts a long run in the background and kills it (SIGKILL) once its keys are on the server.
  void KillARunMidway() {
    core::Process run = dfb_.Start(Small(
        {"run", "--memtier-requests", "100000000", "--warmup-requests", "0", "--trials", "1"}));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (RunKeys() < 100 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_GE(RunKeys(), 100u) << dfb_.BackgroundErrTail();
    run.Signal(SIGKILL);
    ASSERT_TRUE(run.WaitFor(std::chrono::seconds(10)));
    // The kill leaves its keys, and the setup knows their prefix.
    EXPECT_GE(RunKeys(), 100u);
    const json recorded = RecordedRunKeys();
    ASSERT_EQ(recorded.size(), 1u) << recorded;
    EXPECT_EQ(recorded[0]["prefix"].get<std::string>().rfind("dfbench:shared:", 0), 0u);
  }

  DfbenchRunner dfb_{"endpoint-keys"};
  std::optional<TestServer> server_;
  Snapshot before_;
};

TEST_F(EndpointKeysTest, RunsKeepTheUsersDataAndLeaveNoKey) {
  ASSERT_NO_FATAL_FAILURE(StartWithUserData());
  auto run = dfb_.Run(SmallRun());
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("engines")) << run.err;
  EXPECT_GT(out["engines"][0]["trials"][0]["ops"].get<uint64_t>(), 0u);
  ExpectUntouchedAndClean("run");

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
  auto run = dfb_.Run(SmallRun());
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
  auto next = dfb_.Run(SmallRun());
  EXPECT_EQ(next.code, 0) << next.err;
  EXPECT_NE(next.err.find("died while benchmarking"), std::string::npos) << next.err;
  ExpectUntouchedAndClean("the run after the killed one");

  ASSERT_NO_FATAL_FAILURE(KillARunMidway());
  auto destroyed = dfb_.Run({"destroy", "--id", "shared"});
  EXPECT_EQ(destroyed.code, 0) << destroyed.err;
  EXPECT_EQ(Snapshot_(), before_);
  EXPECT_EQ(RunKeys(), 0u);
}

TEST_F(EndpointKeysTest, RemovalFallsBackToDelAndKeysWhereUnlinkAndScanAreRenamed) {
  ASSERT_NO_FATAL_FAILURE(
      StartWithUserData({"--rename-command", "UNLINK", "", "--rename-command", "SCAN", ""}));
  const uint64_t keys_asked = server_->Calls("keys");
  auto run = dfb_.Run(SmallRun());
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("engines")) << run.err;
  EXPECT_GT(server_->Calls("del"), 0u);
  EXPECT_GT(server_->Calls("keys"), keys_asked);
  auto commands = dfb_.Run(SmallCommands({"--command", "LPOP"}));
  EXPECT_EQ(commands.code, 0) << commands.err;
  ExpectUntouchedAndClean("runs with UNLINK and SCAN renamed");
}

TEST_F(EndpointKeysTest, ARemovalTheServerRefusesFailsTheRunAndIsRecorded) {
  ASSERT_NO_FATAL_FAILURE(
      StartWithUserData({"--rename-command", "UNLINK", "", "--rename-command", "DEL", ""}));
  auto run = dfb_.Run(SmallRun());
  EXPECT_EQ(run.code, 1) << run.err;
  const size_t left = RunKeys();
  ASSERT_GT(left, 0u);
  const std::string said = std::to_string(left) + " key(s) of the run left under \"dfbench:shared:";
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
  EXPECT_NE(info.out.find(std::to_string(left) + " key(s) left under \"dfbench:shared:"),
            std::string::npos)
      << info.out;

  // destroy cannot remove them either: it fails and the setup keeps the prefix.
  auto destroyed = dfb_.Run({"destroy", "--id", "shared"});
  EXPECT_EQ(destroyed.code, 1) << destroyed.err;
  EXPECT_NE(destroyed.err.find("the setup keeps the prefix"), std::string::npos) << destroyed.err;
  EXPECT_EQ(dfb_.State("shared")["status"], "ready");
  EXPECT_EQ(RecordedRunKeys().size(), 1u);
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
  for (int i = 0; i < 100 && !client; ++i) {
    if (auto c = protocol::ConnectTo(at, std::chrono::seconds(1))) {
      client.emplace(std::move(*c));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  ASSERT_TRUE(client) << "dragonfly did not answer on port " << port;
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
