// memtier's client staircase (--clients-start, --clients-step, --step-duration) through the
// binary against a real redis-server: the connections arrive step by step, the JSON counts the
// clients of each second under memtier's keys, the operations are the server's, and memtier's
// refusals are ours.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/files.h"
#include "core/subprocess.h"
#include "loadgen_run.h"
#include "protocol/blocking_client.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"

// Its own namespace: the test binary compiles its files as one (unity build).
namespace dfbench::staircase_cli {
namespace {

using json = nlohmann::json;
using testing::RunLoadgen;
using testing::ScopedTempDir;
using testing::TestServer;

uint64_t InfoNumber(protocol::BlockingClient& client, const std::string& section,
                    const std::string& key) {
  auto info = client.Command({"INFO", section});
  if (!info) return 0;
  const std::string value = protocol::InfoField(info->str, key);
  return value.empty() ? 0 : std::stoull(value);
}

TEST(LoadgenStaircase, ClientsJoinStepByStepAndEachSecondCountsThem) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-staircase");
  const auto json_path = dir / "stairs.json";
  auto watcher = server->Client();
  // The generator's connections as the server saw them, each change once, in order (the
  // watcher's own connection not counted).
  std::vector<uint64_t> seen;
  std::atomic<bool> done{false};
  core::CapturedOutput out;
  std::thread run([&] {
    out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "2", "-c", "3", "--clients-start",
                      "1", "--clients-step", "1", "--step-duration", "1", "--test-time", "3",
                      "--ratio", "1:1", "--json-out-file", json_path.string()});
    done = true;
  });
  while (!done) {
    const uint64_t connected = InfoNumber(watcher, "clients", "connected_clients") - 1;
    if (connected > 0 && (seen.empty() || seen.back() != connected)) seen.push_back(connected);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  run.join();
  ASSERT_EQ(out.status.code, 0) << out.err;
  // Two threads of one client each, then two, then three; each level before the next.
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(std::vector<uint64_t>(seen.begin(), seen.begin() + 3),
            (std::vector<uint64_t>{2, 4, 6}));
  EXPECT_EQ(*std::max_element(seen.begin(), seen.end()), 6u);

  const json j = json::parse(core::ReadFile(json_path).value_or(""), nullptr, false);
  // One entry per second of the time series: 1, 2, then 3 clients a thread, to the end.
  const json& active = j["ALL STATS"]["Active Clients"];
  const json& series = j["ALL STATS"]["Totals"]["Time-Serie"];
  ASSERT_GE(series.size(), 3u) << series.dump();
  ASSERT_EQ(active.size(), series.size()) << active.dump();
  for (size_t second = 0; second < series.size(); ++second) {
    const int per_thread = static_cast<int>(std::min<size_t>(second + 1, 3));
    const json expected = {{"Clients per thread", per_thread}, {"Total clients", 2 * per_thread}};
    EXPECT_EQ(active[std::to_string(second)], expected) << active.dump();
  }
  EXPECT_EQ(j["configuration"]["clients_start"], 1);
  EXPECT_EQ(j["configuration"]["clients_step"], 1);
  EXPECT_EQ(j["configuration"]["step_duration"], 1);
  EXPECT_EQ(j["ALL STATS"]["Sets"]["Count"], server->Calls("set"));
  EXPECT_EQ(j["ALL STATS"]["Gets"]["Count"], server->Calls("get"));
  // memtier's drawing of the steps, then the progress lines with the clients of their second.
  EXPECT_NE(out.err.find("[RUN #1] Client staircase pattern (per thread x 2 threads):\n"
                         "  Step 0:   0s -   1s :   1 clients  "),
            std::string::npos)
      << out.err;
  EXPECT_NE(out.err.find("  Total max connections: 3 x 2 = 6\n"
                         "  Minimum time to reach max: 2s (test_time: 3s OK)\n"),
            std::string::npos)
      << out.err;
  EXPECT_NE(out.err.find(" 2 threads  2 conns: "), std::string::npos) << out.err;
}

TEST(LoadgenStaircase, WithoutItTheJsonHasNoneOfItsKeys) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-staircase");
  const auto json_path = dir / "flat.json";
  const auto out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "1", "-c", "2", "-n",
                               "10", "--json-out-file", json_path.string()});
  ASSERT_EQ(out.status.code, 0) << out.err;
  const json j = json::parse(core::ReadFile(json_path).value_or(""), nullptr, false);
  EXPECT_FALSE(j["ALL STATS"].contains("Active Clients"));
  EXPECT_FALSE(j["configuration"].contains("clients_start"));
  EXPECT_EQ(out.err.find("Client staircase pattern"), std::string::npos) << out.err;
}

struct Refusal {
  std::vector<std::string> args;
  std::string line;
};

TEST(LoadgenStaircase, MemtiersRefusalsAreUsageErrors) {
  const std::vector<std::string> all = {"--clients-start", "1", "--clients-step", "1",
                                        "--step-duration", "1"};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.begin(), all.begin(), all.end());
    return more;
  };
  const std::vector<Refusal> refusals = {
      {{"--clients-start", "1", "--test-time", "2"},
       "--clients-start, --clients-step, and --step-duration must all be specified together"},
      {{"--clients-step", "1", "--step-duration", "1", "--test-time", "2"},
       "--clients-start, --clients-step, and --step-duration must all be specified together"},
      {with({"-c", "3", "--test-time", "2", "--clients-start", "3"}),
       "--clients-start (3) must be less than --clients (3)"},
      {with({"-c", "3"}), "--test-time is required when using client staircase mode"},
      {with({"-c", "3", "-n", "10"}), "--requests cannot be used with client staircase mode"},
      {{"--clients-start", "0"}, "--clients-start"},
      {{"--clients-step", "0"}, "--clients-step"},
      {{"--step-duration", "0"}, "--step-duration"},
  };
  for (const Refusal& r : refusals) {
    std::vector<std::string> args = {"-p", "1"};
    args.insert(args.end(), r.args.begin(), r.args.end());
    const auto out = RunLoadgen(args);
    EXPECT_EQ(out.status.code, 2) << r.line << "\n" << out.err;
    EXPECT_NE(out.err.find(r.line), std::string::npos) << out.err;
  }
}

}  // namespace
}  // namespace dfbench::staircase_cli
