#include "support/test_server.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>

namespace dfbench::testing {
namespace {

bool Alive(pid_t pid) {
  return kill(pid, 0) == 0 || errno != ESRCH;
}

TEST(TestServerTest, RedisWithExtraArgsIsStoppedOnDestruction) {
  pid_t pid = 0;
  std::filesystem::path log;
  {
    auto server = TestServer::StartRedis({"--maxmemory", "10mb"});
    ASSERT_TRUE(server) << server.error().message;
    pid = server->pid();
    log = server->log_path();
    EXPECT_GT(server->port(), 0);
    EXPECT_EQ(server->host(), "127.0.0.1");
    EXPECT_TRUE(std::filesystem::exists(log));
    auto client = server->Client();
    auto reply = client.Command({"CONFIG", "GET", "maxmemory"});
    ASSERT_TRUE(reply) << reply.error().message;
    ASSERT_EQ(reply->elements.size(), 2u);
    EXPECT_EQ(reply->elements[1].str, "10485760");
    TestServer moved = std::move(*server);  // ownership moves with the server
    EXPECT_EQ(moved.pid(), pid);
    EXPECT_TRUE(Alive(pid));
  }
  EXPECT_FALSE(Alive(pid));
  EXPECT_FALSE(std::filesystem::exists(log));  // the scratch directory went too
}

TEST(TestServerTest, MemcachedWithExtraArgs) {
  auto server = TestServer::StartMemcached({"-m", "32"});
  ASSERT_TRUE(server) << server.error().message;
  auto client = server->Client();
  auto stats = client.MemcacheCommand("stats");
  ASSERT_TRUE(stats) << stats.error().message;
  bool found = false;
  for (const auto& line : *stats) found = found || line == "STAT limit_maxbytes 33554432";
  EXPECT_TRUE(found);
  const pid_t pid = server->pid();
  server->Stop();
  EXPECT_FALSE(Alive(pid));
}

TEST(TestServerTest, StartupFailureCarriesTheLogTail) {
  auto server = TestServer::StartRedis({"--no-such-directive", "1"});
  ASSERT_FALSE(server);
  EXPECT_EQ(server.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(server.error().message.find("log tail"), std::string::npos);
  EXPECT_NE(server.error().message.find("no-such-directive"), std::string::npos)
      << server.error().message;
}

TEST(TestServerTest, FreePortIsAUsablePort) {
  const int port = FreePort();
  EXPECT_GT(port, 1023);
  EXPECT_LT(port, 65536);
}

}  // namespace
}  // namespace dfbench::testing
