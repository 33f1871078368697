// A small synchronous client for control traffic (PING, INFO, FLUSHALL, SHUTDOWN, DBSIZE,
// memcached "version"/"stats"/"flush_all"). Not for load: the load generator has its own
// non-blocking connections.
#pragma once

#include <sys/socket.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "protocol/reply.h"
#include "protocol/tls.h"

namespace dfbench::protocol {

class BlockingClient {
 public:
  // Connects over TCP (host name or address, resolved in `family`: AF_INET, AF_INET6 or
  // AF_UNSPEC for either), with TLS when `tls` is given. kEnvironment when it does not resolve,
  // is refused, times out, or the TLS handshake fails (saying why: the certificate check's reason).
  static core::Result<BlockingClient> Connect(const std::string& host, int port,
                                              std::chrono::milliseconds timeout,
                                              const TlsContext* tls = nullptr,
                                              int family = AF_UNSPEC);
  // Connects to a Unix domain socket. kEnvironment when it is not there or refuses.
  static core::Result<BlockingClient> ConnectUnix(const std::string& path,
                                                  std::chrono::milliseconds timeout);

  BlockingClient(BlockingClient&&) noexcept;
  BlockingClient& operator=(BlockingClient&&) noexcept;
  ~BlockingClient();

  // Sends one RESP command and reads its whole reply. An error reply is a Reply of type kError
  // (not a failure); I/O errors, timeouts and malformed replies fail with kEnvironment.
  core::Result<Reply> Command(const std::vector<std::string>& args);
  // Sends `commands` at once and reads their replies, in order (as Command).
  core::Result<std::vector<Reply>> Pipeline(const std::vector<std::vector<std::string>>& commands);

  // Sends one memcached text-protocol line (e.g. "version", "stats", "flush_all") and returns
  // the reply lines up to and including the terminating one (END, OK, VERSION ..., ERROR ...).
  core::Result<std::vector<std::string>> MemcacheCommand(const std::string& line);

  void set_timeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }

 private:
  BlockingClient(int fd, std::chrono::milliseconds timeout) : fd_(fd), timeout_(timeout) {}
  core::Status Handshake(const TlsContext& tls, const std::string& where);
  core::Status SettleTls(const std::string& where);
  core::Result<Reply> ReadReply();
  // After any failure the stream position is unknown, so the connection is closed: later calls
  // fail fast instead of reading the tail of an earlier reply.
  core::Error Broken(const std::string& message);
  core::Status SendAll(std::string_view bytes);
  // Appends what the connection has (waiting at most the timeout for it) to buffer_.
  core::Status ReadMore();
  void Close();

  int fd_ = -1;
  std::unique_ptr<TlsSession> tls_;
  std::chrono::milliseconds timeout_;
  std::string buffer_;  // bytes read but not yet consumed
};

// Parses an INFO reply body ("key:value" lines, "# Section" headers) into key/value pairs.
std::vector<std::pair<std::string, std::string>> ParseInfo(const std::string& body);

// Value of `key` in an INFO body, or "" when absent.
std::string InfoField(const std::string& body, const std::string& key);

}  // namespace dfbench::protocol
