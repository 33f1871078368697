// A server named by URL, as memtier's --uri and redis-cli -u take it:
// redis://[[user]:password@]host[:port][/db] and rediss:// for TLS. Shared by the load
// generator's --uri and anything else that is handed a server by URL.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace dfbench::protocol {

struct ServerUrl {
  bool tls = false;      // rediss://
  std::string user;      // "" = the default user
  std::string password;  // "" = none
  std::string host;
  int port = 6379;
  int db = 0;
};

// kUsage naming what is wrong (the scheme, an empty host, a port outside 1..65535, a database
// that is not a number); the password is never part of the message. User and password are
// percent-decoded.
core::Result<ServerUrl> ParseServerUrl(std::string_view url);

// The URL again without its password ("rediss://bench@cache:6380"), for records and logs.
std::string Redacted(const ServerUrl& url);

}  // namespace dfbench::protocol
