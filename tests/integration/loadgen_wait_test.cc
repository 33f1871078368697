// memtier's WAIT traffic (--wait-ratio, --num-slaves, --wait-timeout) through the binary,
// against a real redis-server with one replica: the WAITs, SETs and GETs the server ran are the
// report's, and the refusals memtier makes are made.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/files.h"
#include "core/subprocess.h"
#include "loadgen_run.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"
#include "support/test_server.h"

namespace dfbench {
namespace {

using testing::ReadJson;
using testing::RunLoadgen;
using testing::ScopedTempDir;
using testing::TestServer;

// The primary's replica is up once INFO replication shows it online.
bool ReplicaOnline(const TestServer& primary) {
  auto client = primary.Client();
  for (int i = 0; i < 200; ++i) {
    auto info = client.Command({"INFO", "replication"});
    if (info && info->str.find("state=online") != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// The text table's row of `type`, its columns split.
std::vector<std::string> TableRow(const std::string& table, const std::string& type) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(type + " ", 0) != 0) continue;
    std::istringstream words(line);
    std::vector<std::string> row;
    for (std::string w; words >> w;) row.push_back(w);
    return row;
  }
  return {};
}

TEST(LoadgenWait, ServerRanTheReportsWaitsSetsAndGets) {
  auto primary = TestServer::StartRedis();
  ASSERT_TRUE(primary) << primary.error().message;
  auto replica =
      TestServer::StartRedis({"--replicaof", primary->host(), std::to_string(primary->port())});
  ASSERT_TRUE(replica) << replica.error().message;
  ASSERT_TRUE(ReplicaOnline(*primary));
  const ScopedTempDir dir("loadgen-wait");
  const auto json_path = dir / "report.json";
  const auto out = RunLoadgen({"-p", std::to_string(primary->port()), "-t", "2", "-c", "2", "-n",
                               "60", "--wait-ratio", "1:1", "--num-slaves", "1-1", "--wait-timeout",
                               "0-5", "--hide-histogram", "--json-out-file", json_path.string()});
  ASSERT_EQ(out.status.code, 0) << out.err;
  const nlohmann::json report = ReadJson(json_path);
  const auto& all = report["ALL STATS"];
  // Each client's 60: W S 10G S, then W 10G S 10G S twice, then W: 4 WAITs and 6 SETs.
  EXPECT_EQ(all["Waits"]["Count"], 4 * 4);
  EXPECT_EQ(all["Sets"]["Count"], 4 * 6);
  EXPECT_EQ(all["Waits"]["Count"].get<uint64_t>(), primary->Calls("wait"));
  EXPECT_EQ(all["Sets"]["Count"].get<uint64_t>(), primary->Calls("set"));
  EXPECT_EQ(all["Gets"]["Count"].get<uint64_t>(), primary->Calls("get"));
  EXPECT_EQ(all["Totals"]["Count"], 4 * 60);
  EXPECT_EQ(report["dfbench"]["section_errors"]["Waits"], 0);
  EXPECT_EQ(report["configuration"]["wait-ratio"], "1:1");
  EXPECT_EQ(report["configuration"]["num-slaves"], "1:1");
  EXPECT_EQ(report["configuration"]["wait-timeout"], "0-5");
  // memtier's row: the rate and latencies, dashes for hits, misses and KB/sec.
  const auto waits = TableRow(out.out, "Waits");
  ASSERT_EQ(waits.size(), 9u) << out.out;
  EXPECT_NE(waits[1], "0.00") << out.out;
  EXPECT_EQ(waits[2], "---");
  EXPECT_EQ(waits[3], "---");
  EXPECT_NE(waits[4], "---") << out.out;
  EXPECT_EQ(waits[8], "---");
}

// memtier's refusals, and WAIT outside Redis, one line naming the flag and exit 2.
TEST(LoadgenWait, RefusesWhatMemtierRefuses) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--wait-ratio", "0:0"}, "--wait-ratio"},
      {{"--wait-ratio", "1"}, "--wait-ratio"},
      {{"--num-slaves", "0-0"}, "--num-slaves"},
      {{"--num-slaves", "2"}, "--num-slaves"},
      {{"--wait-timeout", "5"}, "--wait-timeout"},
      {{"--wait-ratio", "1:0", "--cluster-mode"}, "--cluster-mode"},
      {{"--wait-ratio", "1:1", "--protocol", "memcache_text"}, "--protocol redis"},
  };
  for (const auto& [flags, says] : cases) {
    std::vector<std::string> args = {"-p", "1", "-n", "1"};
    args.insert(args.end(), flags.begin(), flags.end());
    const auto out = RunLoadgen(args);
    EXPECT_EQ(out.status.code, 2) << flags[0] << " " << flags[1] << ": " << out.err;
    EXPECT_NE(out.err.find(says), std::string::npos) << out.err;
    EXPECT_EQ(std::count(out.err.begin(), out.err.end(), '\n'), 1) << out.err;
  }
}

}  // namespace
}  // namespace dfbench
