// The preload step of `run-commands`, through the scenario and driver API against a real
// redis-server: every key of the range ends up with the right type and number of items. And
// every built-in command, preload and requests, against the real Dragonfly of the test beds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <tuple>

#include "core/files.h"
#include "drivers/builtin_driver.h"
#include "engines/engine.h"
#include "hosts/local_host.h"
#include "scenarios/commands/command_registry.h"
#include "scenarios/commands/run_commands.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"

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
    const core::Load shape{.threads = 2,
                           .clients = 4,
                           .pipeline = 8,
                           .data_size = kDataSize,
                           .key_minimum = 1,
                           .key_maximum = kKeys};
    auto record = scenarios::Preload(
        driver_, *host_, {server_->host(), server_->port(), core::Protocol::kRedis}, spec, shape,
        {}, dir_ / "raw" / stem, [this] {
          return core::Result<uint64_t>(
              static_cast<uint64_t>(server_->Client().Command({"DBSIZE"})->integer));
        });
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

// Every built-in command and two custom templates as run-commands sends them, against one start
// of the real Dragonfly: the preload (the same scenarios::Preload) leaves every key, and a short
// pass of each command gets no error reply. To stay within a few seconds, request counts replace
// run-commands' whole-second trials, and commands with the same preload share one (the ones
// that change it last); a command without one gets a flush of its own, as the key names are
// shared. The whole run-commands flow on Dragonfly is in commands_dragonfly_test.cc.
TEST(DragonflyCommands, EveryBuiltinCommandPreloadsAndRunsWithoutErrors) {
  if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
  const ScopedTempDir dir("dragonfly-commands");
  ClientHost host(dir / "work");
  auto engine = engines::Start(host, *engines::FindEngine("dragonfly"), DragonflyBinary().string(),
                               {.dragonfly_num_shards = 0, .dragonfly_proactor_threads = 1});
  ASSERT_TRUE(engine) << engine.error().message;
  const drivers::Target target{engine->address(), engine->port(), core::Protocol::kRedis};
  drivers::BuiltinDriver driver;

  std::vector<scenarios::CommandProfile> commands = scenarios::BuiltinCommands();
  ASSERT_EQ(commands.size(), 25u);
  commands.push_back({.name = "GETRANGE",
                      .tmpl = "GETRANGE __key__ 0 50",
                      .preload = {.head = "SET __key__ __data__", .items = 1}});
  commands.push_back({.name = "SISMEMBER-custom",
                      .tmpl = "SISMEMBER __key__ m3",
                      .preload = {.head = "SADD __key__ m__item__", .items = 4},
                      .key_maximum = 50});
  // Those sharing a preload side by side, the ones that change it after the others.
  std::stable_sort(commands.begin(), commands.end(), [](const auto& a, const auto& b) {
    return std::tuple(a.preload.PassTemplates(), a.key_maximum, a.mutates) <
           std::tuple(b.preload.PassTemplates(), b.key_maximum, b.mutates);
  });
  constexpr uint64_t kRunKeys = 200;
  const scenarios::CommandProfile* preloaded = nullptr;  // what the keyspace holds
  size_t preloads = 0;
  for (const auto& c : commands) {
    SCOPED_TRACE(c.name);
    const core::Load measured{.threads = 1,
                              .clients = 2,
                              .pipeline = 4,
                              .data_size = 32,
                              .command = c.tmpl,
                              .key_minimum = 1,
                              .key_maximum = c.KeyRange(kRunKeys)};
    const bool same_preload = c.reads() && preloaded &&
                              preloaded->preload.PassTemplates() == c.preload.PassTemplates() &&
                              preloaded->key_maximum == c.key_maximum;
    if (!same_preload) {
      ASSERT_TRUE(engine->Flush());
      preloaded = nullptr;
    }
    if (c.reads() && !same_preload) {
      auto record = scenarios::Preload(driver, host, target, c.preload, measured, {},
                                       dir / "raw" / (c.name + "-preload"),
                                       [&] { return engine->KeyCount(); });
      ASSERT_TRUE(record) << record.error().message;  // error replies fail it
      EXPECT_EQ(record->keys, measured.KeyCount());
      EXPECT_EQ(record->ops, measured.KeyCount() * record->passes);
      preloaded = &c;
      ++preloads;
    }
    auto pass = driver.Run(host, target, measured, core::Pass::Requests(100), {},
                           dir / "raw" / (c.name + ".json"));
    ASSERT_TRUE(pass) << pass.error().message;
    EXPECT_EQ(pass->errors, 0u);
    EXPECT_EQ(pass->ops, 200u);
  }
  // strings (GET ... DEL, GETRANGE), lists, sets, hashes, sorted sets, the custom sets.
  EXPECT_EQ(preloads, 6u);
}

}  // namespace
}  // namespace dfbench::testing
