// Cluster mode: the routing rules on their own, then runs against a real 3-node Redis Cluster,
// with the server's command counts as the judge (never speed).
#include "loadgen/cluster.h"

#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "loadgen/loadgen.h"
#include "loadgen/run_ok_test_support.h"
#include "support/test_cluster.h"
#include "support/wait_until.h"

namespace dfbench::loadgen {
namespace {

using protocol::Reply;
using protocol::ReplyType;
using testing::TestCluster;

TEST(HashSlot, IsCrc16XmodemOfTheKeyModulo16384) {
  EXPECT_EQ(HashSlot("123456789"), 0x31C3);  // CRC16/XMODEM's check value
  EXPECT_EQ(HashSlot(""), 0);
}

TEST(HashSlot, HashesOnlyANonEmptyTag) {
  EXPECT_EQ(HashSlot("{user1000}.following"), HashSlot("user1000"));
  EXPECT_EQ(HashSlot("{user1000}.followers"), HashSlot("user1000"));
  EXPECT_EQ(HashSlot("foo{bar}{zap}"), HashSlot("bar"));  // the first tag only
  EXPECT_EQ(HashSlot("foo{}{bar}"), HashSlot("foo{}{bar}"));
  EXPECT_NE(HashSlot("foo{}{bar}"), HashSlot("bar"));      // an empty tag hashes the whole key
  EXPECT_EQ(HashSlot("foo{{bar}}zap"), HashSlot("{bar"));  // up to the first '}'
  EXPECT_EQ(HashSlot("foo{bar"), HashSlot("foo{bar"));     // unclosed: the whole key
}

TEST(ParseRedirect, ReadsMovedAndAsk) {
  auto moved = ParseRedirect("MOVED 3999 127.0.0.1:6381");
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->kind, Redirect::Kind::kMoved);
  EXPECT_EQ(moved->slot, 3999);
  EXPECT_EQ(moved->node, (ClusterNode{.host = "127.0.0.1", .port = 6381}));
  auto ask = ParseRedirect("ASK 0 ::1:7000");
  ASSERT_TRUE(ask);
  EXPECT_EQ(ask->kind, Redirect::Kind::kAsk);
  EXPECT_EQ(ask->node, (ClusterNode{.host = "::1", .port = 7000}));
  auto no_host = ParseRedirect("MOVED 12 :7001");
  ASSERT_TRUE(no_host);
  EXPECT_EQ(no_host->node.host, "");
}

TEST(ParseRedirect, RefusesOtherErrors) {
  for (const char* text : {"ERR wrong number of arguments", "MOVED", "MOVED 16384 h:1",
                           "MOVED x h:1", "ASK 1 host", "ASK 1 host:0", "TRYAGAIN"}) {
    EXPECT_FALSE(ParseRedirect(text)) << text;
  }
}

Reply Int(int64_t v) {
  return Reply{.type = ReplyType::kInteger, .integer = v};
}
Reply Bulk(std::string s) {
  return Reply{.type = ReplyType::kBulkString, .str = std::move(s)};
}
Reply Array(std::vector<Reply> elements) {
  return Reply{.type = ReplyType::kArray, .elements = std::move(elements)};
}
Reply Range(int first, int last, const std::string& host, int port) {
  return Array({Int(first), Int(last), Array({Bulk(host), Int(port), Bulk("id")})});
}

TEST(ParseClusterSlots, MapsEverySlotToItsPrimary) {
  auto map =
      ParseClusterSlots(Array({Range(0, 5460, "10.0.0.1", 7000), Range(5461, 10922, "", 7001),
                               Range(10923, 16383, "10.0.0.1", 7000)}),
                        "seed");
  ASSERT_TRUE(map) << map.error().message;
  ASSERT_EQ(map->nodes.size(), 2u);
  EXPECT_EQ(map->nodes[1], (ClusterNode{.host = "seed", .port = 7001}));  // "": the seed's host
  EXPECT_EQ(map->owner[0], 0);
  EXPECT_EQ(map->owner[5461], 1);
  EXPECT_EQ(map->owner[16383], 0);
}

TEST(ParseClusterSlots, RefusesAMapWithAHole) {
  auto map = ParseClusterSlots(Array({Range(0, 100, "h", 1)}), "seed");
  ASSERT_FALSE(map);
  EXPECT_NE(map.error().message.find("slot 101 has no owner"), std::string::npos);
}

TEST(ParseClusterSlots, RefusesWhatIsNotASlotList) {
  EXPECT_FALSE(ParseClusterSlots(Reply{.type = ReplyType::kError, .str = "ERR no cluster"}, "s"));
  EXPECT_FALSE(ParseClusterSlots(Array({Array({Int(0)})}), "s"));
  EXPECT_FALSE(ParseClusterSlots(Array({Range(5, 2, "h", 1)}), "s"));
}

// --- against a real cluster ---

// One 3-node cluster for the suite, emptied and its counters reset before each test.
class ClusterRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto cluster = TestCluster::StartRedis(3);
    if (cluster) {
      cluster_ = new TestCluster(std::move(*cluster));
    } else {
      start_error_ = cluster.error().message;
    }
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(cluster_, nullptr) << start_error_;
    for (size_t i = 0; i < cluster_->size(); ++i) {
      auto client = cluster_->node(i).Client();
      ASSERT_TRUE(client.Command({"FLUSHALL"}));
      ASSERT_TRUE(client.Command({"CONFIG", "RESETSTAT"}));
    }
  }

  // Two threads of two clients, keys 0..5000, through node 1 (any node will do as the seed).
  static Config ClusterConfig() {
    Config config = QuietRun(2, 2);
    config.port = cluster_->node(1).port();
    config.cluster_mode = true;
    config.load.key_maximum = 5000;
    return config;
  }
  // The calls of `command` on every node.
  static uint64_t Calls(const std::string& command) {
    uint64_t sum = 0;
    for (size_t i = 0; i < cluster_->size(); ++i) sum += cluster_->node(i).Calls(command);
    return sum;
  }

  static TestCluster* cluster_;
  static std::string start_error_;
};
TestCluster* ClusterRun::cluster_ = nullptr;
std::string ClusterRun::start_error_;

TEST_F(ClusterRun, HashSlotAgreesWithTheServer) {
  auto client = cluster_->node(0).Client();
  for (const std::string key : {"memtier-0", "memtier-12345", "{tag}x", "a{b}c", "x{}y", "k{"}) {
    auto reply = client.Command({"CLUSTER", "KEYSLOT", key});
    ASSERT_TRUE(reply);
    EXPECT_EQ(HashSlot(key), reply->integer) << key;
  }
}

TEST_F(ClusterRun, RoutesEveryRequestToItsNodeAndCountsItOnce) {
  Config config = ClusterConfig();
  config.pass.requests_per_client = 500;
  config.load.ratio = {1, 1};
  const Report r = RunOk(config);
  EXPECT_EQ(r.totals.count, 2u * 2 * 500);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.unanswered, 0u);
  EXPECT_EQ(r.totals.moved + r.totals.ask, 0u);
  EXPECT_EQ(Calls("set") + Calls("get"), r.totals.count);
  for (size_t i = 0; i < cluster_->size(); ++i) {
    EXPECT_GT(cluster_->node(i).Calls("set"), 0u) << "node " << i << " got no load";
  }
  EXPECT_EQ(r.cluster_nodes.size(), 3u);
}

TEST_F(ClusterRun, CustomCommandsAreRoutedByTheirKey) {
  Config config = ClusterConfig();
  config.pass.requests_per_client = 300;
  config.load.pipeline = 4;
  config.commands = {{.text = "LPUSH __key__ __data__"}};
  const Report r = RunOk(config);
  EXPECT_EQ(r.totals.count, 2u * 2 * 300);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(Calls("lpush"), r.totals.count);
}

TEST_F(ClusterRun, OpenLoopKeepsItsRateAcrossNodes) {
  Config config = ClusterConfig();
  config.pass = core::Pass::Time(std::chrono::seconds(2));
  config.pass.rate_per_sec = 2000;
  const Report r = RunOk(config);
  EXPECT_EQ(r.errors, 0u);
  // Unanswered requests include due ones that never left, so the server ran between the two.
  const uint64_t calls = Calls("set") + Calls("get");
  EXPECT_GE(calls, r.totals.count);
  EXPECT_LE(calls, r.totals.count + r.unanswered);
  EXPECT_GT(r.totals.count, 0u);
}

TEST(ClusterMode, RefusesANodeThatIsNotInACluster) {
  auto server = testing::TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config;
  config.port = server->port();
  config.cluster_mode = true;
  config.progress = ProgressMode::kNever;
  const core::Error error = RunFails(config);
  EXPECT_EQ(error.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(error.message.find("CLUSTER SLOTS"), std::string::npos) << error.message;
}

// A shard killed mid-run (a cluster of its own: the shared one must stay whole): the requests
// in flight to it are errors, and the run says it ended early, at the kill.
TEST(ClusterMode, AShardKilledMidRunEndsTheRunEarly) {
  auto cluster = TestCluster::StartRedis(3);
  ASSERT_TRUE(cluster) << cluster.error().message;
  Config config = QuietRun(1, 2);
  config.port = cluster->node(0).port();
  config.cluster_mode = true;
  config.load.key_maximum = 5000;
  config.pass = core::Pass::Time(std::chrono::seconds(3));
  std::thread killer([&] {
    // Once the load is under way on the shard that goes.
    EXPECT_TRUE(testing::WaitUntil(
        [&] { return cluster->node(2).Calls("set") + cluster->node(2).Calls("get") >= 300; },
        std::chrono::seconds(30), "300 SETs and GETs on shard 2"));
    cluster->node(2).Stop();
  });
  const Report r = RunOk(config);
  killer.join();
  EXPECT_NE(r.ended_early.find("a connection was lost"), std::string::npos) << r.ended_early;
  EXPECT_GT(r.ended_at_sec, 0);
  EXPECT_GT(r.lost_requests, 0u);
  EXPECT_GE(r.errors, r.lost_requests);
  EXPECT_GT(r.connection_errors, 0u);
  EXPECT_GE(r.duration_ms, 3000.0);  // the window ran its whole test time, on past the kill
}

std::string MyId(const testing::TestServer& node) {
  auto client = node.Client();
  auto reply = client.Command({"CLUSTER", "MYID"});
  return reply ? reply->str : "";
}

// Moves `slot` from `from` to `to` the way redis-cli --cluster reshard does: IMPORTING and
// MIGRATING, the keys in batches, then the new owner announced. After the first batch it waits
// for the load to meet the half-moved slot: an ASK followed, which `to` counts as an ASKING.
void MigrateSlot(const testing::TestServer& from, const testing::TestServer& to, int slot) {
  auto src = from.Client();
  auto dst = to.Client();
  const std::string s = std::to_string(slot);
  ASSERT_FALSE(dst.Command({"CLUSTER", "SETSLOT", s, "IMPORTING", MyId(from)})->is_error());
  ASSERT_FALSE(src.Command({"CLUSTER", "SETSLOT", s, "MIGRATING", MyId(to)})->is_error());
  while (true) {
    auto keys = src.Command({"CLUSTER", "GETKEYSINSLOT", s, "20"});
    ASSERT_TRUE(keys);
    if (keys->elements.empty()) break;
    std::vector<std::string> migrate = {
        "MIGRATE", to.host(), std::to_string(to.port()), "", "0", "5000", "REPLACE", "KEYS"};
    for (const auto& key : keys->elements) migrate.push_back(key.str);
    auto reply = src.Command(migrate);
    ASSERT_TRUE(reply);
    ASSERT_FALSE(reply->is_error()) << reply->str;
    ASSERT_TRUE(testing::WaitUntil([&] { return to.Calls("asking") > 0; }, std::chrono::seconds(30),
                                   "an ASK followed to the new owner"));
  }
  ASSERT_FALSE(dst.Command({"CLUSTER", "SETSLOT", s, "NODE", MyId(to)})->is_error());
  ASSERT_FALSE(src.Command({"CLUSTER", "SETSLOT", s, "NODE", MyId(to)})->is_error());
}

// Last in the suite: it moves a slot of the shared cluster for good.
TEST_F(ClusterRun, ASlotMigratedMidRunIsFollowedWithoutLosingARequest) {
  // Every key carries one hash tag, so the whole load is on the one slot that moves.
  Config config = ClusterConfig();
  config.load.key_prefix = "{moving}:";
  config.load.key_maximum = 400;
  config.load.ratio = {1, 1};
  config.pass = core::Pass::Time(std::chrono::seconds(3));
  const int slot = HashSlot("moving");
  size_t owner = 0;  // the node that answers for the slot rather than redirecting
  for (size_t i = 0; i < cluster_->size(); ++i) {
    auto client = cluster_->node(i).Client();
    if (auto reply = client.Command({"EXISTS", "{moving}:0"}); reply && !reply->is_error())
      owner = i;
  }
  const size_t next = (owner + 1) % cluster_->size();
  ASSERT_TRUE(Validate(config));
  core::Result<Report> report;
  std::thread load([&] { report = loadgen::Run(config); });
  EXPECT_TRUE(testing::WaitUntil([&] { return Calls("set") + Calls("get") >= 1000; },
                                 std::chrono::seconds(30), "1000 SETs and GETs"));
  MigrateSlot(cluster_->node(owner), cluster_->node(next), slot);
  load.join();
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->errors, 0u) << (report->error_samples.empty() ? "" : report->error_samples[0]);
  EXPECT_EQ(report->unanswered, 0u);
  EXPECT_EQ(report->connection_errors, 0u);
  EXPECT_GT(report->totals.ask, 0u);
  EXPECT_GT(report->totals.moved, 0u);
  // Each measured request ran exactly once: the redirected ones are not among the calls.
  EXPECT_EQ(Calls("set") + Calls("get"), report->totals.count + report->warmup_count);
  EXPECT_GT(cluster_->node(next).Calls("get"), 0u);
  const auto json = nlohmann::json::parse(ReportJson(*report, config));
  EXPECT_EQ(json["dfbench"]["cluster"]["moved"], report->totals.moved);
  EXPECT_TRUE(json["ALL STATS"]["Totals"].contains("MOVED/sec"));
}

}  // namespace
}  // namespace dfbench::loadgen
