// Real servers for tests: a redis-server or memcached on a free port of 127.0.0.1, in a
// scratch directory, stopped and reaped when the TestServer goes away.
//
//   auto server = dfbench::testing::TestServer::StartRedis();
//   ASSERT_TRUE(server) << server.error().message;
//   auto client = server->Client();
//   auto pong = client.Command({"PING"});
//
// Link dfbench_test_support and include "support/test_server.h".
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/subprocess.h"
#include "protocol/blocking_client.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::testing {

// A TCP port on 127.0.0.1 that was free a moment ago (the OS picked it; another process may
// still take it before you bind it).
int FreePort();

// How often the Redis-protocol server on `host`:`port` (one a test did not start too: an engine
// dfbench runs) ran each of `commands` (INFO commandstats' cmdstat_<command> calls), summed; 0
// for a command it never ran, and when it does not answer.
uint64_t CallsOn(const std::string& host, int port, const std::vector<std::string>& commands);

class TestServer {
 public:
  // Starts /usr/bin/redis-server (found on PATH) with
  // `--save "" --appendonly no --bind 127.0.0.1 --port N --dir <scratch>` plus `extra_args`,
  // and waits (up to ~10 s) until it answers PING. kEnvironment, with the tail of the server's
  // log, when it does not.
  static core::Result<TestServer> StartRedis(const std::vector<std::string>& extra_args = {});
  // The same on a given port (a server restarted where its clients left it).
  static core::Result<TestServer> StartRedisOn(int port,
                                               const std::vector<std::string>& extra_args = {});
  // Starts memcached with `-l 127.0.0.1 -p N -U 0` (plus `-u <user>` when running as root)
  // plus `extra_args`, and waits until it answers "version".
  static core::Result<TestServer> StartMemcached(const std::vector<std::string>& extra_args = {});

  TestServer(TestServer&& other) noexcept;
  TestServer& operator=(TestServer&& other) noexcept;
  ~TestServer();  // kills the server (SIGKILL), reaps it, removes its scratch directory

  const std::string& host() const { return host_; }  // "127.0.0.1"
  int port() const { return port_; }
  pid_t pid() const { return process_.pid(); }
  // The server's stdout and stderr.
  const std::filesystem::path& log_path() const { return log_path_; }

  // A new connection to the server (5 s timeout). Aborts the test binary if it cannot
  // connect, since the server answered when it started.
  protocol::BlockingClient Client() const;

  // Redis: how often the server ran `command` (CallsOn). Redirected (MOVED, ASK) and refused
  // calls are not counted there.
  uint64_t Calls(const std::string& command) const;

  // Kills and reaps the server now (e.g. to test what happens when it goes away).
  void Stop();

 private:
  enum class Kind { kRedis, kMemcached };
  static core::Result<TestServer> Start(Kind kind, const std::vector<std::string>& extra_args,
                                        int port = 0);
  TestServer() = default;

  // Moves assign in this order: the old process is stopped before its directory goes.
  core::Process process_;
  std::string host_ = "127.0.0.1";
  int port_ = 0;
  std::optional<ScopedTempDir> dir_;
  std::filesystem::path log_path_;
};

}  // namespace dfbench::testing
