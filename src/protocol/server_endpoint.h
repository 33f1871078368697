// A server as dfbench itself reaches it for control requests (readiness, INFO, FLUSHALL,
// SHUTDOWN, counters): its address and port, and for a server that asks for them, TLS and the
// credentials to authenticate with. One type for every control connection, engines dfbench
// started and endpoints it did not.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "core/error.h"
#include "protocol/blocking_client.h"
#include "protocol/tls.h"

namespace dfbench::protocol {

// The environment variable that hands `dfbench loadgen` its password when -a is not given, kept
// off its command line (as redis-cli's REDISCLI_AUTH).
inline constexpr const char* kPasswordEnv = "DFBENCH_AUTH";

struct ServerEndpoint {
  std::string address;
  int port = 0;
  std::shared_ptr<const TlsContext> tls;  // null: plain TCP
  std::string user;                       // "" with a password: the default user
  std::string password;                   // "": no AUTH
  int db = 0;                             // SELECTed after AUTH when not 0
};

// Connects (with TLS when the endpoint has it), authenticates (AUTH [user] password) when it
// has a password and selects its database when that is not 0. kEnvironment naming the endpoint
// when it cannot be reached, refuses the credentials or the database (the server's reason,
// never the password).
core::Result<BlockingClient> ConnectTo(const ServerEndpoint& endpoint,
                                       std::chrono::milliseconds timeout);

}  // namespace dfbench::protocol
