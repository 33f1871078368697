// The preload step of `run-commands`, through the scenario and driver API against a real
// redis-server: every key of the range ends up with the right type and number of items.
#include <gtest/gtest.h>
#include <unistd.h>

#include "core/files.h"
#include "drivers/builtin_driver.h"
#include "hosts/local_host.h"
#include "scenarios/command_registry.h"
#include "scenarios/run_commands.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"

namespace dfbench::testing {
namespace {

// This machine as the client host, running the built dfbench (not this test binary) as the
// load generator.
class ClientHost : public hosts::LocalHost {
 public:
  using LocalHost::LocalHost;
  core::Result<std::string> DfbenchBinary() override { return std::string(DFBENCH_BINARY); }
};

constexpr uint64_t kKeys = 300;
constexpr int kDataSize = 64;

class PreloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = TestServer::StartRedis();
    ASSERT_TRUE(s) << s.error().message;
    server_.emplace(std::move(*s));
    host_.emplace(dir_ / "work");
  }

  void TearDown() override { host_.reset(); }

  // Flushes, preloads `spec` over keys 1..kKeys, and returns what Preload reported.
  results::PreloadRecord Load(const scenarios::PreloadSpec& spec, const std::string& stem) {
    auto client = server_->Client();
    EXPECT_TRUE(client.Command({"FLUSHALL"}));
    const drivers::Workload shape{.threads = 2,
                                  .clients = 4,
                                  .data_size = kDataSize,
                                  .pipeline = 8,
                                  .key_minimum = 1,
                                  .key_maximum = kKeys};
    auto record = scenarios::Preload(driver_, *host_, {server_->host(), server_->port(), "redis"},
                                     spec, shape, {}, dir_ / "raw" / stem);
    EXPECT_TRUE(record) << (record ? "" : record.error().message);
    return record.value_or(results::PreloadRecord{});
  }

  // TYPE and size of sampled keys: the first, one in the middle, the last.
  void ExpectKeys(const std::string& type, const char* size_command, int64_t size) {
    auto client = server_->Client();
    EXPECT_EQ(client.Command({"DBSIZE"})->integer, static_cast<int64_t>(kKeys));
    for (uint64_t k : {uint64_t{1}, kKeys / 2, kKeys}) {
      const std::string key = "memtier-" + std::to_string(k);
      EXPECT_EQ(client.Command({"TYPE", key})->str, type) << key;
      EXPECT_EQ(client.Command({size_command, key})->integer, size) << key << " " << size_command;
    }
    EXPECT_EQ(client.Command({"EXISTS", "memtier-0"})->integer, 0);  // keys start at 1
    EXPECT_EQ(client.Command({"EXISTS", "memtier-" + std::to_string(kKeys + 1)})->integer, 0);
  }

  const scenarios::PreloadSpec& BuiltinPreload(const char* command) {
    return scenarios::FindBuiltinCommand(command)->preload;
  }

  std::optional<TestServer> server_;
  const ScopedTempDir dir_{"preload"};
  std::optional<ClientHost> host_;
  drivers::BuiltinDriver driver_;
};

TEST_F(PreloadTest, PlainStringsForGetExistsDel) {
  for (const char* command : {"GET", "MGET", "EXISTS", "EXPIRE", "TTL", "DEL"}) {
    auto r = Load(BuiltinPreload(command), command);
    EXPECT_EQ(r.passes, 1) << command;
    EXPECT_EQ(r.ops, kKeys) << command;
    EXPECT_EQ(r.keys, kKeys) << command;
    ExpectKeys("string", "STRLEN", kDataSize);
  }
}

TEST_F(PreloadTest, HundredElementListsForLrangeLpopRpop) {
  for (const char* command : {"LRANGE", "LPOP", "RPOP"}) {
    auto r = Load(BuiltinPreload(command), command);
    EXPECT_EQ(r.passes, 10) << command;
    EXPECT_EQ(r.ops, kKeys * 10) << command;
    ExpectKeys("list", "LLEN", 100);
  }
}

TEST_F(PreloadTest, TenMemberSetsForSmembersSismember) {
  for (const char* command : {"SMEMBERS", "SISMEMBER"}) {
    Load(BuiltinPreload(command), command);
    ExpectKeys("set", "SCARD", 10);
    EXPECT_EQ(server_->Client().Command({"SISMEMBER", "memtier-7", "member:5"})->integer, 1);
  }
}

TEST_F(PreloadTest, HashesForHgetHgetall) {
  for (const char* command : {"HGET", "HGETALL"}) {
    Load(BuiltinPreload(command), command);
    ExpectKeys("hash", "HLEN", 10);
    EXPECT_EQ(server_->Client().Command({"HSTRLEN", "memtier-7", "field:1"})->integer, kDataSize);
  }
}

TEST_F(PreloadTest, SortedSetsForZscoreZrange) {
  for (const char* command : {"ZSCORE", "ZRANGE"}) {
    Load(BuiltinPreload(command), command);
    ExpectKeys("zset", "ZCARD", 100);
    EXPECT_EQ(server_->Client().Command({"ZSCORE", "memtier-7", "member:50"})->str, "50");
  }
}

TEST_F(PreloadTest, CustomTemplateWithItemNumbers) {
  scenarios::PreloadSpec spec{.head = "SADD __key__ m__item__", .items = 5};
  auto r = Load(spec, "custom");
  EXPECT_EQ(r.passes, 5);
  ExpectKeys("set", "SCARD", 5);
  // Without __item__ a non-idempotent command still gives each key `items` items.
  Load({.head = "LPUSH __key__ __data__", .items = 3}, "custom-lpush");
  ExpectKeys("list", "LLEN", 3);
}

}  // namespace
}  // namespace dfbench::testing
