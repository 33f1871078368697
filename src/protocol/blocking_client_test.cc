#include "protocol/blocking_client.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "protocol/memcache_text.h"
#include "protocol/resp_encoder.h"
#include "protocol/resp_parser.h"
#include "support/test_server.h"

namespace dfbench::protocol {
namespace {

using namespace std::chrono_literals;
using testing::TestServer;

// A plain blocking socket, for feeding real server bytes to the load-path scanners.
class RawConnection {
 public:
  explicit RawConnection(int port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  }
  ~RawConnection() { close(fd_); }

  void Send(const std::string& bytes) {
    EXPECT_EQ(send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(bytes.size()));
  }

  // Reads until `scanner` reported `count` replies; returns their kinds.
  template <class Scanner>
  std::vector<ReplyKind> Collect(Scanner& scanner, size_t count) {
    std::vector<ReplyKind> kinds;
    std::string pending;
    char buf[1024];  // small reads, so replies split across them
    while (kinds.size() < count) {
      const ssize_t n = recv(fd_, buf, sizeof(buf), 0);
      if (n <= 0) break;
      pending.append(buf, static_cast<size_t>(n));
      const ScanResult r =
          scanner.Scan(pending, [&](ReplyKind kind, std::string_view) { kinds.push_back(kind); });
      EXPECT_EQ(r.status, ParseStatus::kOk) << scanner.error();
      if (r.status != ParseStatus::kOk) break;
      pending.erase(0, r.consumed);
    }
    return kinds;
  }

 private:
  int fd_;
};

// A redis-server of the test's own and a client connected to it.
class BlockingClientRedisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_) << server_.error().message;
    client_.emplace(server_->Client());
  }

  core::Result<TestServer> server_ = TestServer::StartRedis();
  std::optional<BlockingClient> client_;
};

TEST_F(BlockingClientRedisTest, PingSetGetAndNull) {
  auto pong = client_->Command({"PING"});
  ASSERT_TRUE(pong) << pong.error().message;
  EXPECT_EQ(pong->type, ReplyType::kSimpleString);
  EXPECT_EQ(pong->str, "PONG");

  auto set = client_->Command({"SET", "greeting", "hello world"});
  ASSERT_TRUE(set);
  EXPECT_EQ(set->str, "OK");
  auto get = client_->Command({"GET", "greeting"});
  ASSERT_TRUE(get);
  EXPECT_EQ(get->type, ReplyType::kBulkString);
  EXPECT_EQ(get->str, "hello world");
  auto miss = client_->Command({"GET", "absent"});
  ASSERT_TRUE(miss);
  EXPECT_TRUE(miss->is_null());
  auto size = client_->Command({"DBSIZE"});
  ASSERT_TRUE(size);
  EXPECT_EQ(size->type, ReplyType::kInteger);
  EXPECT_EQ(size->integer, 1);
}

TEST_F(BlockingClientRedisTest, BigValueAndArrays) {
  const std::string big(3 << 20, 'b');  // arrives over many reads
  ASSERT_TRUE(client_->Command({"SET", "big", big}));
  auto get = client_->Command({"GET", "big"});
  ASSERT_TRUE(get);
  EXPECT_EQ(get->str, big);
  ASSERT_TRUE(client_->Command({"RPUSH", "list", "a", "b", "c"}));
  auto range = client_->Command({"LRANGE", "list", "0", "-1"});
  ASSERT_TRUE(range);
  ASSERT_EQ(range->type, ReplyType::kArray);
  ASSERT_EQ(range->elements.size(), 3u);
  EXPECT_EQ(range->elements[2].str, "c");
}

TEST_F(BlockingClientRedisTest, ErrorReplyIsAReplyNotAFailure) {
  auto reply = client_->Command({"NOSUCHCOMMAND", "x"});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_TRUE(reply->is_error());
  EXPECT_TRUE(reply->str.starts_with("ERR")) << reply->str;
  ASSERT_TRUE(client_->Command({"SET", "s", "v"}));
  auto wrong_type = client_->Command({"LPUSH", "s", "x"});
  ASSERT_TRUE(wrong_type);
  EXPECT_TRUE(wrong_type->str.starts_with("WRONGTYPE")) << wrong_type->str;
  // The connection is still in step.
  auto pong = client_->Command({"PING"});
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->str, "PONG");
}

TEST_F(BlockingClientRedisTest, InfoParsing) {
  auto info = client_->Command({"INFO", "server"});
  ASSERT_TRUE(info);
  ASSERT_EQ(info->type, ReplyType::kBulkString);
  EXPECT_EQ(InfoField(info->str, "tcp_port"), std::to_string(server_->port()));
  EXPECT_EQ(InfoField(info->str, "process_id"), std::to_string(server_->pid()));
  EXPECT_FALSE(InfoField(info->str, "redis_version").empty());
  EXPECT_EQ(InfoField(info->str, "no_such_field"), "");
  for (const auto& [key, value] : ParseInfo(info->str)) {
    EXPECT_FALSE(key.empty());
    EXPECT_EQ(key.find('#'), std::string::npos);
    EXPECT_EQ(value.find('\r'), std::string::npos);
  }
}

TEST_F(BlockingClientRedisTest, Resp3Replies) {
  auto hello = client_->Command({"HELLO", "3"});
  ASSERT_TRUE(hello);
  ASSERT_EQ(hello->type, ReplyType::kArray);  // a map, flattened
  ASSERT_GE(hello->elements.size(), 2u);
  EXPECT_EQ(hello->elements[0].str, "server");
  auto miss = client_->Command({"GET", "absent"});
  ASSERT_TRUE(miss);
  EXPECT_TRUE(miss->is_null());
  ASSERT_TRUE(client_->Command({"HSET", "h", "f", "v"}));
  auto all = client_->Command({"HGETALL", "h"});
  ASSERT_TRUE(all);
  EXPECT_EQ(all->elements.size(), 2u);
  auto score = client_->Command({"ZADD", "z", "1.5", "m"});
  ASSERT_TRUE(score);
  auto zscore = client_->Command({"ZSCORE", "z", "m"});
  ASSERT_TRUE(zscore);
  EXPECT_EQ(zscore->type, ReplyType::kDouble);
  EXPECT_EQ(zscore->str, "1.5");
}

TEST_F(BlockingClientRedisTest, TimeoutAndDeadServerFailWithEnvironment) {
  client_->set_timeout(100ms);
  auto blocked = client_->Command({"BLPOP", "nothing", "5"});
  ASSERT_FALSE(blocked);
  EXPECT_EQ(blocked.error().kind, core::ErrorKind::kEnvironment);
  // The stream is out of step after a timeout: the client refuses rather than misreads.
  auto after = client_->Command({"PING"});
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().kind, core::ErrorKind::kEnvironment);

  BlockingClient other = server_->Client();
  server_->Stop();
  auto dead = other.Command({"PING"});
  ASSERT_FALSE(dead);
  EXPECT_EQ(dead.error().kind, core::ErrorKind::kEnvironment);
}

TEST(BlockingClientTest, ConnectionRefusedIsEnvironment) {
  const int port = testing::FreePort();  // nothing listens there
  auto client = BlockingClient::Connect("127.0.0.1", port, 1s);
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(client.error().message.find("refused"), std::string::npos) << client.error().message;
}

TEST(BlockingClientTest, HostNamesResolve) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  auto client = BlockingClient::Connect("localhost", server->port(), 2s);
  if (!client) GTEST_SKIP() << "localhost does not reach 127.0.0.1 here";
  auto pong = client->Command({"PING"});
  ASSERT_TRUE(pong);
  auto unresolvable = BlockingClient::Connect("no-such-host.invalid", server->port(), 1s);
  ASSERT_FALSE(unresolvable);
  EXPECT_EQ(unresolvable.error().kind, core::ErrorKind::kEnvironment);
}

TEST(BlockingClientMemcacheTest, VersionSetGetStatsFlush) {
  auto server = TestServer::StartMemcached();
  ASSERT_TRUE(server) << server.error().message;
  BlockingClient client = server->Client();
  auto version = client.MemcacheCommand("version");
  ASSERT_TRUE(version) << version.error().message;
  ASSERT_EQ(version->size(), 1u);
  EXPECT_TRUE(version->front().starts_with("VERSION ")) << version->front();

  auto stats = client.MemcacheCommand("stats");
  ASSERT_TRUE(stats);
  ASSERT_GT(stats->size(), 2u);
  EXPECT_EQ(stats->back(), "END");
  EXPECT_TRUE(stats->front().starts_with("STAT pid ")) << stats->front();

  // Each command, in order, and the reply lines it gets.
  const std::vector<std::pair<std::string, std::vector<std::string>>> exchanges = {
      {"set greeting 0 0 9\r\nhi\r\nthere", {"STORED"}},
      {"get greeting", {"VALUE greeting 0 9", "hi\r\nthere", "END"}},
      {"flush_all", {"OK"}},
      {"get greeting", {"END"}},
      {"no_such_command", {"ERROR"}},
  };
  for (const auto& [command, reply] : exchanges) {
    auto lines = client.MemcacheCommand(command);
    ASSERT_TRUE(lines) << command;
    EXPECT_EQ(*lines, reply) << command;
  }
}

// The load-path encoders and scanners against the real servers' bytes.
TEST(LoadPathTest, RedisPipelineThroughTemplateAndScanner) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  auto set = CommandTemplate::Compile("SET __key__ __data__");
  auto get = CommandTemplate::Compile("GET __key__");
  auto bad = CommandTemplate::Compile("INCR __key__");
  ASSERT_TRUE(set && get && bad);
  const std::string value(5000, 'x');
  std::string pipeline;
  std::vector<ReplyKind> expected;
  for (int i = 0; i < 200; ++i) {
    const std::string key = "key:" + std::to_string(i);
    set->Encode(&pipeline, key, value);
    get->Encode(&pipeline, key, "");
    get->Encode(&pipeline, key + ":absent", "");
    bad->Encode(&pipeline, key, "");  // not an integer
    expected.insert(expected.end(),
                    {ReplyKind::kOk, ReplyKind::kOk, ReplyKind::kNull, ReplyKind::kError});
  }
  RawConnection conn(server->port());
  conn.Send(pipeline);
  RespScanner scanner;
  EXPECT_EQ(conn.Collect(scanner, expected.size()), expected);
  EXPECT_TRUE(scanner.idle());
}

TEST(LoadPathTest, MemcachePipelineThroughEncoderAndScanner) {
  auto server = TestServer::StartMemcached();
  ASSERT_TRUE(server) << server.error().message;
  const std::string value(5000, 'x');
  std::string pipeline;
  std::vector<ReplyKind> expected;
  for (int i = 0; i < 200; ++i) {
    const std::string key = "key:" + std::to_string(i);
    AppendMemcacheSet(&pipeline, key, value);
    AppendMemcacheGet(&pipeline, key);
    AppendMemcacheGet(&pipeline, key + ":absent");
    expected.insert(expected.end(), {ReplyKind::kOk, ReplyKind::kOk, ReplyKind::kNull});
  }
  pipeline += "bogus\r\n";
  expected.push_back(ReplyKind::kError);
  RawConnection conn(server->port());
  conn.Send(pipeline);
  MemcacheScanner scanner;
  EXPECT_EQ(conn.Collect(scanner, expected.size()), expected);
  EXPECT_TRUE(scanner.idle());
}

}  // namespace
}  // namespace dfbench::protocol
