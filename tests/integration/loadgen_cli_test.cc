// The loadgen command line end to end: exit codes, the one-line errors, the outputs.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/subprocess.h"
#include "loadgen_run.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench {
namespace {

using testing::ReadJson;
using testing::RunLoadgen;
using testing::ScopedTempDir;
using testing::TestServer;

size_t Lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(LoadgenCli, BadInputIsOneLineAndExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"--no-such-flag"},
      {"--ratio", "1-10"},
      {"--command", "SET __key__ __dat__"},
      {"--key-minimum", "10", "--key-maximum", "5"},
      {"-d", "0"},
      {"--key-pattern", "P:R"},
      {"--command", "GET __key__", "--ratio", "1:1"},
      {"--command-ratio", "2"},
      {"--test-time", "soon"},
      {"--threads", "many"},
      {"--data-size-list", "10:1", "--data-size-range", "1-5"},
      {"--data-offset", "3", "--expiry-range", "1-2"},
      {"--rate-limiting", "10", "--rate", "100"},
      {"--tls-protocols", "SSLv3", "--tls"},
  };
  for (const auto& args : cases) {
    auto out = RunLoadgen(args);
    EXPECT_EQ(out.status.code, 2) << args[0] << ": " << out.err;
    EXPECT_EQ(Lines(out.err), 1u) << args[0] << ": " << out.err;
    EXPECT_TRUE(out.out.empty()) << args[0];
  }
}

TEST(LoadgenCli, UnreachableServerIsExitFive) {
  auto out = RunLoadgen({"-p", std::to_string(testing::FreePort()), "-n", "10"});
  EXPECT_EQ(out.status.code, 5) << out.err;
  EXPECT_EQ(Lines(out.err), 1u) << out.err;
  EXPECT_NE(out.err.find("cannot connect"), std::string::npos) << out.err;
}

TEST(LoadgenCli, PasswordProblemsAreExitFive) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  {
    auto client = server->Client();
    ASSERT_TRUE(client.Command({"CONFIG", "SET", "requirepass", "sekret"}));
  }
  const std::string port = std::to_string(server->port());
  auto out = RunLoadgen({"-p", port, "-n", "10"});
  EXPECT_EQ(out.status.code, 5) << out.err;
  EXPECT_EQ(Lines(out.err), 1u) << out.err;
  EXPECT_NE(out.err.find("NOAUTH"), std::string::npos) << out.err;
  out = RunLoadgen({"-p", port, "-n", "10", "-a", "wrong"});
  EXPECT_EQ(out.status.code, 5) << out.err;
  EXPECT_EQ(Lines(out.err), 1u) << out.err;
  out = RunLoadgen({"-p", port, "-n", "10", "-t", "1", "-c", "2", "-a", "sekret"});
  EXPECT_EQ(out.status.code, 0) << out.err;
}

// A URL's /N, and --select-db, put the load in that database and none in database 0; ":pw@" is
// the default user's password.
TEST(LoadgenCli, TheDatabaseOfTheUrlOrSelectDbGetsTheKeys) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  ASSERT_TRUE(server->Client().Command({"CONFIG", "SET", "requirepass", "S3cr3tPa55"}));
  const std::string port = std::to_string(server->port());
  auto out = RunLoadgen({"-u", "redis://:S3cr3tPa55@127.0.0.1:" + port + "/5", "-t", "1", "-c", "2",
                         "-n", "50", "--ratio", "1:0", "--progress", "never"});
  ASSERT_EQ(out.status.code, 0) << out.err;
  out = RunLoadgen({"-p", port, "-a", "S3cr3tPa55", "--select-db", "3", "-t", "1", "-c", "1", "-n",
                    "20", "--ratio", "1:0", "--key-prefix", "three-", "--progress", "never"});
  ASSERT_EQ(out.status.code, 0) << out.err;
  auto client = server->Client();
  ASSERT_TRUE(client.Command({"AUTH", "S3cr3tPa55"}));
  const auto keys_in = [&](int db) {
    auto selected = client.Command({"SELECT", std::to_string(db)});
    EXPECT_TRUE(selected && !selected->is_error());
    auto reply = client.Command({"DBSIZE"});
    return reply ? reply->integer : -1;
  };
  EXPECT_GT(keys_in(5), 0);
  EXPECT_GT(keys_in(3), 0);
  EXPECT_EQ(keys_in(0), 0);

  out = RunLoadgen({"-p", port, "-a", "S3cr3tPa55", "--select-db", "99", "-n", "10"});
  EXPECT_EQ(out.status.code, 5) << out.err;
  EXPECT_EQ(Lines(out.err), 1u) << out.err;
  EXPECT_NE(out.err.find("refused database 99"), std::string::npos) << out.err;
}

TEST(LoadgenCli, WritesTheTableAndTheJson) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-cli");
  const auto json_path = dir / "report.json";
  auto out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "2", "-c", "2", "-n", "100",
                         "--json-out-file", json_path.string(), "--progress", "never"});
  EXPECT_EQ(out.status.code, 0) << out.err;
  EXPECT_NE(out.out.find("\nTotals "), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("Avg. Latency"), std::string::npos) << out.out;
  EXPECT_TRUE(out.err.empty()) << out.err;
  const auto j = ReadJson(json_path);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["ALL STATS"]["Totals"]["Count"], 400);
  EXPECT_EQ(j["ALL STATS"]["Runtime"]["Interrupted"], "false");
  EXPECT_EQ(j["dfbench"]["errors"], 0);
}

// memtier's --rate-limiting N: each connection's N requests a second, the open loop at N x
// connections, both rates in the report's configuration.
TEST(LoadgenCli, RateLimitingIsTheOpenLoopPerConnection) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-cli");
  const auto json_path = dir / "report.json";
  auto out = RunLoadgen({"-h", "127.0.0.1", "-p", std::to_string(server->port()), "-t", "1", "-c",
                         "2", "-n", "20", "--rate-limiting", "1000", "--json-out-file",
                         json_path.string(), "--progress", "never"});
  EXPECT_EQ(out.status.code, 0) << out.err;
  const auto j = ReadJson(json_path);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["configuration"]["rate_limit"], 1000);
  EXPECT_EQ(j["dfbench"]["configuration"]["rate"], 2000);
  EXPECT_EQ(j["dfbench"]["mode"], "open-loop");
  EXPECT_EQ(j["ALL STATS"]["Totals"]["Count"], 40);
  EXPECT_EQ(server->Calls("set") + server->Calls("get"), 40u);
}

// A report written nowhere is a failure: stdout on a full device is exit 1 and one line.
TEST(LoadgenCli, StdoutOnAFullDeviceIsExitOne) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-full");
  const auto err = dir / "stderr";
  auto p = core::Spawn({.argv = {LOADGEN_BINARY, "loadgen", "-p", std::to_string(server->port()),
                                 "-t", "1", "-c", "1", "-n", "10", "--progress", "never"},
                        .stdout_path = "/dev/full",
                        .stderr_path = err.string()});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->Wait().code, 1);
  EXPECT_EQ(core::ReadFile(err).value_or(""),
            "dfbench: cannot write to standard output: No space left on device\n");
}

// memtier's --hdr-file-prefix files: a percentile table and a histogram log for the totals and
// for each command, the log holding the histogram the JSON hands over.
TEST(LoadgenCli, WritesHdrHistogramFilesAsMemtierDoes) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-cli");
  const auto json_path = dir / "report.json";
  auto out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "2", "-c", "2", "-n", "100",
                         "--ratio", "1:1", "--hdr-file-prefix", (dir / "h").string(),
                         "--json-out-file", json_path.string(), "--progress", "never"});
  ASSERT_EQ(out.status.code, 0) << out.err;
  for (const char* stem : {"h_FULL_RUN_1", "h_SET_command_run_1", "h_GET_command_run_1"}) {
    for (const char* ext : {".txt", ".hgrm"}) {
      EXPECT_TRUE(std::filesystem::exists(dir / (std::string(stem) + ext))) << stem << ext;
    }
  }
  const auto table = core::ReadFile(dir / "h_FULL_RUN_1.txt");
  ASSERT_TRUE(table);
  EXPECT_NE(table->find("Total count    =          400]"), std::string::npos) << *table;
  const auto log = core::ReadFile(dir / "h_FULL_RUN_1.hgrm");
  ASSERT_TRUE(log);
  EXPECT_EQ(log->rfind("#[Full Run command HDR latency histogram results]\n", 0), 0u) << *log;
  const std::string last = log->substr(log->rfind(',') + 1);
  const auto j = ReadJson(json_path);
  const auto& histogram = j["ALL STATS"]["Totals"]["Percentile Latencies"]["Histogram log format"];
  EXPECT_EQ(j["dfbench"]["histogram_unit"], "ns");
  EXPECT_EQ(histogram["Compressed Histogram"].get<std::string>() + "\n", last);
}

// Ctrl+C as memtier answers it: the load stops, its line on stderr, the report of what ran
// (marked interrupted), exit 0.
TEST(LoadgenCli, CtrlCStopsTheLoadReportsAndExitsZero) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-cli");
  const auto json_path = dir / "interrupted.json";
  const auto stdout_path = dir / "interrupted.out";
  const auto stderr_path = dir / "interrupted.err";
  core::SpawnOptions spawn;
  spawn.argv = {LOADGEN_BINARY,
                "loadgen",
                "-p",
                std::to_string(server->port()),
                "-t",
                "1",
                "-c",
                "2",
                "--test-time",
                "30",
                "--json-out-file",
                json_path.string()};
  spawn.stdout_path = stdout_path.string();
  spawn.stderr_path = stderr_path.string();
  auto child = core::Spawn(spawn);
  ASSERT_TRUE(child) << child.error().message;
  // Interrupted once the load is under way and its first progress line is out.
  ASSERT_TRUE(testing::WaitUntil(
      [&] {
        return core::ReadFile(stderr_path).value_or("").find("[RUN #1 ") != std::string::npos &&
               server->Calls("set") + server->Calls("get") >= 100;
      },
      std::chrono::seconds(30), "the first progress line and 100 SETs and GETs"));
  child->Signal(SIGINT);
  auto status = child->WaitFor(std::chrono::seconds(10));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 0);
  const std::string err = core::ReadFile(stderr_path).value_or("");
  const size_t line = err.find("\n[RUN #1] Interrupted by user (Ctrl+C) after ");
  ASSERT_NE(line, std::string::npos) << err;
  EXPECT_NE(err.find(" secs, stopping threads...\n\n\n", line), std::string::npos) << err;
  const auto j = ReadJson(json_path);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["ALL STATS"]["Runtime"]["Interrupted"], "true");
  const auto count = j["ALL STATS"]["Totals"]["Count"].get<uint64_t>();
  EXPECT_GT(count, 0u);
  // Every request counted, the server ran (those in flight at the interrupt it may have run too).
  EXPECT_LE(count, server->Calls("set") + server->Calls("get"));
  auto table = core::ReadFile(stdout_path);
  ASSERT_TRUE(table);
  EXPECT_NE(table->find("Interrupted"), std::string::npos);
}

// SIGTERM is no Ctrl+C: the report of what ran, and exit 130.
TEST(LoadgenCli, TermWritesAMarkedReportAndExits130) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-cli");
  const auto json_path = dir / "terminated.json";
  core::SpawnOptions spawn;
  spawn.argv = {LOADGEN_BINARY,
                "loadgen",
                "-p",
                std::to_string(server->port()),
                "-t",
                "1",
                "-c",
                "2",
                "--test-time",
                "30",
                "--progress",
                "never",
                "--json-out-file",
                json_path.string()};
  spawn.stdout_path = (dir / "terminated.out").string();
  auto child = core::Spawn(spawn);
  ASSERT_TRUE(child) << child.error().message;
  ASSERT_TRUE(testing::WaitUntil([&] { return server->Calls("set") + server->Calls("get") >= 100; },
                                 std::chrono::seconds(30), "100 SETs and GETs"));
  child->Signal(SIGTERM);
  auto status = child->WaitFor(std::chrono::seconds(10));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 130);
  EXPECT_EQ(ReadJson(json_path)["ALL STATS"]["Runtime"]["Interrupted"], "true");
}

TEST(LoadgenCli, HelpHasExamples) {
  auto out = RunLoadgen({"--help"});
  EXPECT_EQ(out.status.code, 0);
  EXPECT_NE(out.out.find("Examples:"), std::string::npos);
  EXPECT_NE(out.out.find("--key-pattern"), std::string::npos);
}

// The connections the server accepted so far (INFO stats), as `server` counts them.
uint64_t ConnectionsReceived(TestServer& server) {
  auto client = server.Client();
  auto info = client.Command({"INFO", "stats"});
  if (!info) return 0;
  const std::string key = "total_connections_received:";
  const size_t at = info->str.find(key);
  return at == std::string::npos ? 0 : std::stoull(info->str.substr(at + key.size()));
}

// --reconnect-interval N, as memtier's: each connection is reopened after N requests, all
// answered first, none after its last request. 2 clients x 10 requests at an interval of 3 open
// 4 connections each (3 + 3 + 3 + 1 requests) where they opened 1, and the server sees every one
// (memtier 2.3.0 opens the same 8).
TEST(LoadgenCli, ReconnectIntervalReopensEachConnectionAfterNRequests) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-reconnect");
  const auto json_path = dir / "report.json";
  const std::vector<std::string> load = {"-p",         std::to_string(server->port()),
                                         "-t",         "1",
                                         "-c",         "2",
                                         "-n",         "10",
                                         "--pipeline", "2",
                                         "--progress", "never"};
  // The connections a run opens, less the one that asked afterwards.
  const auto connections_of = [&](std::vector<std::string> args) {
    const uint64_t before = ConnectionsReceived(*server);
    auto out = RunLoadgen(std::move(args));
    EXPECT_EQ(out.status.code, 0) << out.err;
    return ConnectionsReceived(*server) - before - 1;
  };
  const uint64_t plain = connections_of(load);
  auto reopening = load;
  reopening.insert(reopening.end(),
                   {"--reconnect-interval", "3", "--json-out-file", json_path.string()});
  EXPECT_EQ(connections_of(reopening), plain + 6);
  EXPECT_EQ(server->Calls("set") + server->Calls("get"), 40u);
  const auto j = ReadJson(json_path);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["ALL STATS"]["Totals"]["Count"], 20);
  EXPECT_EQ(j["ALL STATS"]["Totals"]["Connection Errors"], 0);
  EXPECT_EQ(j["configuration"]["reconnect_interval"], 3);
  EXPECT_EQ(j["dfbench"]["reconnects"], 6);
  EXPECT_EQ(j["dfbench"]["lost_requests"], 0);
  EXPECT_EQ(j["dfbench"]["errors"], 0);
}

// memtier's reconnect flags are taken with their meanings; --reconnect-on-error is refused only
// beside our --reconnect off, which it contradicts.
TEST(LoadgenCli, TakesMemtiersReconnectFlags) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  auto out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "1", "-c", "1", "-n", "5",
                         "--reconnect-on-error", "--max-reconnect-attempts=3",
                         "--reconnect-backoff-factor=1.5", "--connection-timeout=2", "--progress",
                         "never"});
  EXPECT_EQ(out.status.code, 0) << out.err;
  out = RunLoadgen({"--reconnect", "off", "--reconnect-on-error"});
  EXPECT_EQ(out.status.code, 2) << out.err;
  EXPECT_NE(out.err.find("--reconnect-on-error contradicts --reconnect off"), std::string::npos)
      << out.err;
}

}  // namespace
}  // namespace dfbench
