#include "support/test_server.h"

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/files.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using core::ErrorKind;
using namespace std::chrono_literals;

constexpr auto kReadyTimeout = 10s;
constexpr int kStartAttempts = 3;  // a free port can be taken by someone else before we bind it

// True once the server answers its protocol's liveness probe.
bool Answers(bool redis, int port) {
  auto client = protocol::BlockingClient::Connect("127.0.0.1", port, 500ms);
  if (!client) return false;
  if (redis) {
    auto reply = client->Command({"PING"});
    return reply && reply->str == "PONG";
  }
  auto lines = client->MemcacheCommand("version");
  return lines && !lines->empty() && lines->back().starts_with("VERSION");
}

}  // namespace

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

core::Result<TestServer> TestServer::StartRedis(const std::vector<std::string>& extra_args) {
  return Start(Kind::kRedis, extra_args);
}

core::Result<TestServer> TestServer::StartRedisOn(int port,
                                                  const std::vector<std::string>& extra_args) {
  return Start(Kind::kRedis, extra_args, port);
}

core::Result<TestServer> TestServer::StartMemcached(const std::vector<std::string>& extra_args) {
  return Start(Kind::kMemcached, extra_args);
}

core::Result<TestServer> TestServer::Start(Kind kind, const std::vector<std::string>& extra_args,
                                           int fixed_port) {
  const bool redis = kind == Kind::kRedis;
  const char* const binary = redis ? "redis-server" : "memcached";
  if (!core::FindOnPath(binary)) {
    return core::Fail(ErrorKind::kEnvironment, std::string(binary) + ": not found on PATH");
  }
  std::string last_error;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    TestServer server;
    server.dir_.emplace("testserver");
    server.log_path_ = *server.dir_ / "server.log";
    server.port_ = fixed_port > 0 ? fixed_port : FreePort();
    const std::string port = std::to_string(server.port_);
    std::vector<std::string> argv;
    if (redis) {
      argv = {binary,
              "--save",
              "",
              "--appendonly",
              "no",
              "--bind",
              "127.0.0.1",
              "--port",
              port,
              "--dir",
              server.dir_->path().string()};
    } else {
      argv = {binary, "-l", "127.0.0.1", "-p", port, "-U", "0"};
      if (geteuid() == 0) {
        const passwd* pw = getpwuid(0);
        argv.insert(argv.end(), {"-u", pw != nullptr ? pw->pw_name : "root"});
      }
    }
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());

    auto process = core::Spawn(core::SpawnOptions{.argv = argv,
                                                  .stdout_path = server.log_path_.string(),
                                                  .stderr_path = server.log_path_.string()});
    if (!process) return tl::unexpected(process.error());
    server.process_ = std::move(*process);

    bool exited = false;
    const bool ended = WaitUntil(
        [&] {
          exited = server.process_.Poll().has_value();
          return exited || Answers(redis, server.port_);
        },
        kReadyTimeout, "the server to answer");
    if (ended && !exited) return server;
    const std::string tail = core::ReadTail(server.log_path_, 2048);
    last_error = std::string(binary) + " on port " + port +
                 (exited ? " exited before answering" : " did not answer within 10 s") +
                 "; log tail:\n" + tail;
    // Only a lost race for a port of our choosing is worth another try.
    if (!exited || fixed_port > 0 || tail.find("in use") == std::string::npos) break;
  }
  return core::Fail(ErrorKind::kEnvironment, last_error);
}

TestServer::TestServer(TestServer&& other) noexcept = default;
TestServer& TestServer::operator=(TestServer&& other) noexcept = default;

TestServer::~TestServer() {
  Stop();  // before the scratch directory goes
}

void TestServer::Stop() {
  if (process_.running()) process_.Terminate(0ms);
}

protocol::BlockingClient TestServer::Client() const {
  auto client = protocol::BlockingClient::Connect(host_, port_, 5s);
  if (!client) {
    std::fprintf(stderr, "TestServer::Client: %s\n", client.error().message.c_str());
    std::abort();
  }
  return std::move(*client);
}

uint64_t CallsOn(const std::string& host, int port, const std::vector<std::string>& commands) {
  auto client = protocol::BlockingClient::Connect(host, port, std::chrono::seconds(5));
  if (!client) return 0;
  auto reply = client->Command({"INFO", "commandstats"});
  if (!reply || reply->is_error()) return 0;
  uint64_t sum = 0;
  for (const auto& command : commands) {
    const std::string field = protocol::InfoField(reply->str, "cmdstat_" + command);
    if (const size_t calls = field.find("calls="); calls != std::string::npos) {
      sum += std::stoull(field.substr(calls + 6));
    }
  }
  return sum;
}

uint64_t TestServer::Calls(const std::string& command) const {
  return CallsOn(host_, port_, {command});
}

}  // namespace dfbench::testing
