// memtier's --monitor-input, --monitor-pattern and --scan-incremental-iteration through the
// binary against a real redis-server: a replay sends exactly the captured commands (the
// server's INFO commandstats and the data they leave), a SCAN walk follows the server's
// cursors, and what memtier refuses is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/files.h"
#include "core/subprocess.h"
#include "loadgen_run.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"

// Its own namespace: the test binary compiles its files as one (unity build).
namespace dfbench::replay_cli {
namespace {

using json = nlohmann::ordered_json;
using testing::ReadJsonInOrder;
using testing::RunLoadgen;
using testing::ScopedTempDir;
using testing::TestServer;

// The server's calls per command since its last CONFIG RESETSTAT ("set" -> 2).
std::map<std::string, int> Calls(const TestServer& server) {
  auto info = server.Client().Command({"INFO", "commandstats"});
  EXPECT_TRUE(info);
  std::map<std::string, int> calls;
  if (!info) return calls;
  const std::string& text = info->str;
  for (size_t at = text.find("cmdstat_"); at != std::string::npos;
       at = text.find("cmdstat_", at + 1)) {
    const size_t colon = text.find(':', at);
    const size_t value = text.find("calls=", colon) + 6;
    calls[text.substr(at + 8, colon - at - 8)] = std::stoi(text.substr(value));
  }
  // The test's own: its readiness probes and these reads.
  for (const char* own : {"info", "ping", "config|resetstat"}) calls.erase(own);
  return calls;
}

// Lines as redis-cli MONITOR prints them, with a reply line among them.
constexpr const char* kCapture =
    "OK\n"
    "1796680664.222224 [0 127.0.0.1:56626] \"SET\" \"k\" \"v1\"\n"
    "1796680664.246580 [0 127.0.0.1:56636] \"RPUSH\" \"l\" \"a b\" \"q\\\"x\"\n"
    "1796680664.255982 [0 127.0.0.1:56642] \"APPEND\" \"k\" \"\\x00b\"\n"
    "1796680664.270623 [0 127.0.0.1:56656] \"APPEND\" \"k\" \"c\"\n"
    "1796680664.270700 [0 127.0.0.1:56656] \"GET\" \"k\"\n";

class LoadgenReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = TestServer::StartRedis();
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    capture_ = (dir_ / "monitor.txt").string();
    std::ofstream(capture_) << kCapture;
  }
  std::vector<std::string> Args(std::vector<std::string> more) const {
    std::vector<std::string> args = {"-p",
                                     std::to_string(server_->port()),
                                     "-t",
                                     "1",
                                     "-c",
                                     "1",
                                     "--hide-histogram",
                                     "--json-out-file",
                                     json_.string()};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }

  ScopedTempDir dir_{"loadgen-replay"};
  std::optional<TestServer> server_;
  std::string capture_;
  std::filesystem::path json_ = dir_ / "run.json";
};

TEST_F(LoadgenReplay, InTurnSendsEachCapturedCommandOnceInItsOrder) {
  const auto out =
      RunLoadgen(Args({"-n", "5", "--monitor-input", capture_, "--command", "__monitor_line@__"}));
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(Calls(*server_),
            (std::map<std::string, int>{{"set", 1}, {"rpush", 1}, {"append", 2}, {"get", 1}}));
  // The APPENDs in the captured order, their bytes as captured.
  auto value = server_->Client().Command({"GET", "k"});
  ASSERT_TRUE(value);
  EXPECT_EQ(value->str, std::string("v1\0bc", 5));
  auto list = server_->Client().Command({"LRANGE", "l", "0", "-1"});
  ASSERT_TRUE(list);
  ASSERT_EQ(list->elements.size(), 2u);
  EXPECT_EQ(list->elements[0].str, "a b");
  EXPECT_EQ(list->elements[1].str, "q\"x");
  // One row per captured command, as memtier counts them; none for the placeholder.
  const json j = ReadJsonInOrder(json_);
  const json& all = j["ALL STATS"];
  std::vector<std::string> rows;
  for (auto it = all.begin(); it != all.end(); ++it) {
    if (it.key() != "Runtime") rows.push_back(it.key());
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"Sets", "Rpushs", "Appends", "Gets", "Totals"}));
  EXPECT_EQ(all["Appends"]["Count"], 2);
  EXPECT_EQ(all["Totals"]["Count"], 5);
}

TEST_F(LoadgenReplay, InTurnWrapsAroundTheCapture) {
  const auto out = RunLoadgen(Args({"-n", "12", "--monitor-input", capture_, "--command",
                                    "__monitor_line@__", "--monitor-pattern", "s"}));
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(Calls(*server_),
            (std::map<std::string, int>{{"set", 3}, {"rpush", 3}, {"append", 4}, {"get", 2}}));
}

TEST_F(LoadgenReplay, AtRandomSendsOnlyCapturedCommands) {
  const auto out = RunLoadgen(Args({"-n", "200", "--monitor-input", capture_, "--command",
                                    "__monitor_line@__", "--monitor-pattern", "R"}));
  ASSERT_EQ(out.status.code, 0) << out.err;
  int total = 0;
  for (const auto& [command, calls] : Calls(*server_)) {
    EXPECT_TRUE(command == "set" || command == "rpush" || command == "append" || command == "get")
        << command;
    EXPECT_GT(calls, 0) << command;
    total += calls;
  }
  EXPECT_EQ(total, 200);
}

TEST_F(LoadgenReplay, ALinePlaceholderSendsThatCommand) {
  const auto out = RunLoadgen(Args({"-n", "4", "--monitor-input", capture_, "--command",
                                    "__monitor_line2__", "--command", "__monitor_line5__"}));
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(Calls(*server_), (std::map<std::string, int>{{"rpush", 2}, {"get", 2}}));
}

// The cursors the server hands out for SCAN COUNT 10 over its keys, from 0 back to 0.
int WalkLength(const TestServer& server) {
  std::string cursor = "0";
  int scans = 0;
  do {
    auto reply = server.Client().Command({"SCAN", cursor, "COUNT", "10"});
    EXPECT_TRUE(reply);
    if (!reply) return 0;
    cursor = reply->elements[0].str;
    ++scans;
  } while (cursor != "0");
  return scans;
}

class LoadgenScanWalk : public LoadgenReplay {
 protected:
  void SetUp() override {
    LoadgenReplay::SetUp();
    auto client = server_->Client();
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(client.Command({"SET", "key:" + std::to_string(i), "v"}));
    }
    walk_ = WalkLength(*server_);
    ASSERT_GT(walk_, 2);
    ASSERT_TRUE(client.Command({"CONFIG", "RESETSTAT"}));
  }
  int walk_ = 0;
};

TEST_F(LoadgenScanWalk, FollowsTheCursorToZeroThenStartsAgain) {
  const int requests = 2 * walk_ + 1;  // two whole walks and the start of a third
  const auto out = RunLoadgen(Args({"-n", std::to_string(requests), "--command", "SCAN 0 COUNT 10",
                                    "--scan-incremental-iteration"}));
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_EQ(Calls(*server_), (std::map<std::string, int>{{"scan", requests}}));
  const json j = ReadJsonInOrder(json_);
  EXPECT_EQ(j["ALL STATS"]["Scan 0s"]["Count"], 3);
  EXPECT_EQ(j["ALL STATS"]["Scan <cursor>s"]["Count"], requests - 3);
  EXPECT_NE(out.out.find("\nScan <cursor>s "), std::string::npos) << out.out;
}

TEST_F(LoadgenScanWalk, MaxIterationsCapsEachWalk) {
  const auto out =
      RunLoadgen(Args({"-n", "10", "--command", "SCAN 0 COUNT 10", "--scan-incremental-iteration",
                       "--scan-incremental-max-iterations", "2"}));
  ASSERT_EQ(out.status.code, 0) << out.err;
  const json j = ReadJsonInOrder(json_);
  // Walks of SCAN 0 and two continuations: requests 1, 4, 7 and 10 start one.
  EXPECT_EQ(j["ALL STATS"]["Scan 0s"]["Count"], 4);
  EXPECT_EQ(j["ALL STATS"]["Scan <cursor>s"]["Count"], 6);
  EXPECT_EQ(Calls(*server_), (std::map<std::string, int>{{"scan", 10}}));
}

TEST_F(LoadgenReplay, RefusesWhatMemtierRefuses) {
  const std::string bad = (dir_ / "bad.txt").string();
  std::ofstream(bad) << "OK\n1.0 [0 x] \"SET\" \"k\n";
  const std::string port = std::to_string(server_->port());
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--monitor-input", capture_, "--command", "__monitor_line@__", "--monitor-pattern", "X"},
       "--monitor-pattern must be 'S' (sequential) or 'R' (random)"},
      {{"--monitor-input", bad, "--command", "__monitor_line1__"},
       "--monitor-input: " + bad + ":2: malformed MONITOR line: unterminated quote"},
      {{"--monitor-input", capture_, "--command", "__monitor_line6__"},
       "invalid monitor placeholder '__monitor_line6__' (valid range: __monitor_line1__ to "
       "__monitor_line5__ or __monitor_line@__)"},
      {{"--command", "__monitor_line1__"}, "'__monitor_line1__' needs --monitor-input"},
      {{"--command", "SCAN 0", "--scan-incremental-iteration", "--pipeline", "2"},
       "--scan-incremental-iteration requires --pipeline 1"},
      {{"--command", "GET k", "--scan-incremental-iteration"},
       "--scan-incremental-iteration requires the command to be a SCAN command"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> all = {"-p", port};
    all.insert(all.end(), args.begin(), args.end());
    const auto out = RunLoadgen(all);
    EXPECT_EQ(out.status.code, 2) << message << "\n" << out.err;
    EXPECT_NE(out.err.find(message), std::string::npos) << message << "\n" << out.err;
  }
}

}  // namespace
}  // namespace dfbench::replay_cli
