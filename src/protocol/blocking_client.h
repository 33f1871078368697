// A small synchronous client for control traffic (PING, INFO, FLUSHALL, SHUTDOWN, DBSIZE,
// memcached "version"/"stats"/"flush_all"). Not for load: the load generator has its own
// non-blocking connections.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "protocol/reply.h"

namespace dfbench::protocol {

class BlockingClient {
 public:
  // Connects over TCP (host name or address). kEnvironment when refused or timed out.
  static core::Result<BlockingClient> Connect(const std::string& host, int port,
                                              std::chrono::milliseconds timeout);

  BlockingClient(BlockingClient&&) noexcept;
  BlockingClient& operator=(BlockingClient&&) noexcept;
  ~BlockingClient();

  // Sends one RESP command and reads its whole reply. An error reply is a Reply of type kError
  // (not a failure); I/O errors, timeouts and malformed replies fail with kEnvironment.
  core::Result<Reply> Command(const std::vector<std::string>& args);

  // Sends one memcached text-protocol line (e.g. "version", "stats", "flush_all") and returns
  // the reply lines up to and including the terminating one (END, OK, VERSION ..., ERROR ...).
  core::Result<std::vector<std::string>> MemcacheCommand(const std::string& line);

  void set_timeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }

 private:
  BlockingClient(int fd, std::chrono::milliseconds timeout) : fd_(fd), timeout_(timeout) {}
  int fd_ = -1;
  std::chrono::milliseconds timeout_;
  std::string buffer_;  // bytes read but not yet consumed
};

// Parses an INFO reply body ("key:value" lines, "# Section" headers) into key/value pairs.
std::vector<std::pair<std::string, std::string>> ParseInfo(const std::string& body);

// Value of `key` in an INFO body, or "" when absent.
std::string InfoField(const std::string& body, const std::string& key);

}  // namespace dfbench::protocol
