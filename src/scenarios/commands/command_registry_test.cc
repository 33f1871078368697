#include "scenarios/commands/command_registry.h"

#include <gtest/gtest.h>

#include <set>

#include "protocol/resp_encoder.h"

namespace dfbench::scenarios {
namespace {

TEST(CommandRegistry, HasEveryReferenceCommandInOrder) {
  EXPECT_EQ(BuiltinCommandNames(),
            "SET, GET, MSET, MGET, INCR, APPEND, EXISTS, EXPIRE, TTL, DEL, LPUSH, RPUSH, LPOP, "
            "RPOP, LRANGE, HSET, HGET, HGETALL, SADD, SISMEMBER, SMEMBERS, ZADD, ZSCORE, ZRANGE, "
            "PING");
  ASSERT_NE(FindBuiltinCommand("lrange"), nullptr);
  EXPECT_EQ(FindBuiltinCommand("lrange")->name, "LRANGE");
  EXPECT_EQ(FindBuiltinCommand("GETEX"), nullptr);
}

TEST(CommandRegistry, EveryTemplateCompilesAndPreloadsMatchTheCommand) {
  for (const auto& c : BuiltinCommands()) {
    auto t = protocol::CommandTemplate::Compile(c.tmpl);
    ASSERT_TRUE(t) << c.name << ": " << t.error().message;
    EXPECT_EQ(t->name(), c.name);
    if (c.drains) {
      EXPECT_TRUE(c.mutates) << c.name;
    }
    for (const auto& pass : c.preload.PassTemplates()) {
      auto p = protocol::CommandTemplate::Compile(pass);
      ASSERT_TRUE(p) << c.name << " preload: " << p.error().message;
      EXPECT_TRUE(p->uses_key()) << pass;
    }
  }
  // The reference's pairings: plain strings, 100-element lists, 10-member sets.
  auto items = [](const char* name) { return FindBuiltinCommand(name)->preload.items; };
  auto head = [](const char* name) { return FindBuiltinCommand(name)->preload.head; };
  for (const char* name : {"GET", "MGET", "EXISTS", "EXPIRE", "TTL", "DEL"}) {
    EXPECT_EQ(items(name), 1) << name;
    EXPECT_EQ(head(name), "SET __key__ __data__") << name;
  }
  for (const char* name : {"LRANGE", "LPOP", "RPOP"}) {
    EXPECT_EQ(items(name), 100) << name;
    EXPECT_EQ(head(name), "RPUSH __key__") << name;
  }
  for (const char* name : {"SMEMBERS", "SISMEMBER"}) EXPECT_EQ(items(name), 10) << name;
  for (const char* name : {"HGET", "HGETALL"}) EXPECT_EQ(head(name), "HSET __key__") << name;
  for (const char* name : {"ZSCORE", "ZRANGE"}) EXPECT_EQ(head(name), "ZADD __key__") << name;
  for (const char* name :
       {"SET", "MSET", "INCR", "APPEND", "LPUSH", "RPUSH", "HSET", "SADD", "ZADD", "PING"}) {
    EXPECT_FALSE(FindBuiltinCommand(name)->reads()) << name;
  }
  for (const char* name : {"DEL", "LPOP", "RPOP"}) EXPECT_TRUE(FindBuiltinCommand(name)->drains);
  for (const char* name : {"GET", "LRANGE", "SMEMBERS", "ZRANGE", "HGETALL", "TTL", "PING"}) {
    EXPECT_FALSE(FindBuiltinCommand(name)->mutates) << name;
  }
}

TEST(PreloadSpec, BatchedPassesWriteEachItemOnce) {
  const auto& sets = FindBuiltinCommand("SMEMBERS")->preload;
  EXPECT_EQ(sets.PassTemplates(),
            std::vector<std::string>{"SADD __key__ member:1 member:2 member:3 member:4 member:5 "
                                     "member:6 member:7 member:8 member:9 member:10"});
  const auto lists = FindBuiltinCommand("LRANGE")->preload.PassTemplates();
  ASSERT_EQ(lists.size(), 10u);
  size_t data = 0;
  for (const auto& pass : lists) {
    for (size_t pos = pass.find("__data__"); pos != std::string::npos;
         pos = pass.find("__data__", pos + 1)) {
      ++data;
    }
  }
  EXPECT_EQ(data, 100u);  // 100 list elements per key
  // Sorted sets: members 1..100, each once, scored by their number.
  std::set<std::string> members;
  for (const auto& pass : FindBuiltinCommand("ZRANGE")->preload.PassTemplates()) {
    auto args = *protocol::SplitCommandLine(pass);
    ASSERT_EQ(args.size(), 22u) << pass;
    for (size_t i = 2; i < args.size(); i += 2) {
      EXPECT_EQ("member:" + args[i], args[i + 1]);
      members.insert(args[i + 1]);
    }
  }
  EXPECT_EQ(members.size(), 100u);
}

TEST(PreloadSpec, CustomTemplateRunsOncePerItemWithTheItemNumber) {
  PreloadSpec custom{.head = "SADD __key__ m__item__", .items = 3};
  EXPECT_EQ(custom.PassTemplates(),
            (std::vector<std::string>{"SADD __key__ m1", "SADD __key__ m2", "SADD __key__ m3"}));
  PreloadSpec plain{.head = "LPUSH __key__ __data__", .items = 2};
  EXPECT_EQ(plain.PassTemplates(),
            (std::vector<std::string>{"LPUSH __key__ __data__", "LPUSH __key__ __data__"}));
  EXPECT_TRUE(PreloadSpec{}.PassTemplates().empty());
}

TEST(CommandProfile, StructuredPreloadsUseAtMostOneMillionKeys) {
  EXPECT_EQ(FindBuiltinCommand("LRANGE")->KeyRange(100000000), 1000000u);
  EXPECT_EQ(FindBuiltinCommand("LRANGE")->KeyRange(1000), 1000u);
  EXPECT_EQ(FindBuiltinCommand("GET")->KeyRange(100000000), 100000000u);
  EXPECT_EQ(FindBuiltinCommand("SET")->KeyRange(5000), 5000u);
  CommandProfile custom{.name = "X", .tmpl = "X __key__", .key_maximum = 42};
  EXPECT_EQ(custom.KeyRange(100000000), 42u);
}

}  // namespace
}  // namespace dfbench::scenarios
