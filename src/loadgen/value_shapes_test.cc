// The value shapes memtier has beside -d (--data-size-list, --data-size-pattern S, -R) and its
// --data-offset, as a real redis-server receives and stores them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loadgen/run_ok_test_support.h"
#include "support/test_server.h"

namespace dfbench::loadgen {
namespace {

using testing::TestServer;

// One client that SETs keys 0..last in order, once each.
Config SetEachKeyOnce(const TestServer& server, uint64_t last) {
  Config config = QuietRun(1, 1);
  config.port = server.port();
  config.load.ratio = {1, 0};
  config.set_pattern = core::KeyPattern::kSequential;
  config.load.key_minimum = 0;
  config.load.key_maximum = last;
  config.pass.requests_per_client = last + 1;
  return config;
}

std::string Get(const TestServer& server, uint64_t key) {
  auto client = server.Client();
  auto reply = client.Command({"GET", "memtier-" + std::to_string(key)});
  EXPECT_TRUE(reply);
  return reply ? reply->str : "";
}

TEST(ValueShapes, AListSizesTheValuesInTurnByWeight) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config = SetEachKeyOnce(*server, 5);
  config.data_size_list = {{10, 2}, {30, 1}};
  RunOk(config);
  std::vector<size_t> sizes;
  for (uint64_t k = 0; k <= 5; ++k) sizes.push_back(Get(*server, k).size());
  EXPECT_EQ(sizes, (std::vector<size_t>{10, 10, 30, 10, 10, 30}));
}

TEST(ValueShapes, PatternSGrowsTheSizeWithTheKey) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config = SetEachKeyOnce(*server, 100);
  config.data_size_min = 100;
  config.data_size_max = 200;
  config.data_size_by_key = true;
  RunOk(config);
  for (uint64_t k : {0, 1, 37, 99, 100}) EXPECT_EQ(Get(*server, k).size(), 100 + k) << k;
}

TEST(ValueShapes, RandomDataChangesOneByteARequest) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config = SetEachKeyOnce(*server, 1);
  config.load.data_size = 64;
  config.random_data = true;
  RunOk(config);
  const std::string first = Get(*server, 0);
  const std::string second = Get(*server, 1);
  ASSERT_EQ(first.size(), 64u);
  ASSERT_EQ(second.size(), 64u);
  // The shared fixed bytes are letters; these are any bytes.
  EXPECT_NE(first.find_first_not_of("abcdefghijklmnopqrstuvwxyz"), std::string::npos);
  // memtier's walk: request n adds one to byte n-1 (the second request, to byte 1).
  std::string expected = first;
  ++expected[1];
  EXPECT_EQ(second, expected);
}

// memtier's --data-offset: SETRANGE key N value and GETRANGE key N -1, counted as Sets and Gets.
TEST(ValueShapes, DataOffsetWritesAndReadsAtTheOffset) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config = SetEachKeyOnce(*server, 4);
  config.load.ratio = {1, 1};
  config.get_pattern = core::KeyPattern::kSequential;
  config.pass.requests_per_client = 10;
  config.load.data_size = 8;
  config.data_offset = 3;
  const Report r = RunOk(config);
  EXPECT_EQ(server->Calls("setrange"), 5u);
  EXPECT_EQ(server->Calls("getrange"), 5u);
  EXPECT_EQ(server->Calls("set") + server->Calls("get"), 0u);
  uint64_t sets = 0;
  uint64_t gets = 0;
  for (const auto& section : r.sections) {
    if (section.section == "Sets") sets = section.count;
    if (section.section == "Gets") gets = section.count;
  }
  EXPECT_EQ(sets, 5u);
  EXPECT_EQ(gets, 5u);
  EXPECT_EQ(r.errors, 0u);
  const std::string value = Get(*server, 2);
  ASSERT_EQ(value.size(), 3u + 8u);
  EXPECT_EQ(value.substr(0, 3), std::string(3, '\0'));
}

}  // namespace
}  // namespace dfbench::loadgen
