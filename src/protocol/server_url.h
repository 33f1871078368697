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
  std::string host;      // an IPv6 address without its brackets
  int port = 6379;
  int db = 0;  // the path's /N: SELECT N on every connection
  // "redis://word@host": the userinfo had no ':', so the word was read as the password (as
  // redis-cli reads it). A caller whose password comes from elsewhere may read it as the user.
  bool bare_userinfo = false;
};

// kUsage naming what is wrong (the scheme, an empty host, a bare IPv6 address, a port outside
// 1..65535, a database that is not a number, a query); the password is never part of the
// message. User and password are percent-decoded.
core::Result<ServerUrl> ParseServerUrl(std::string_view url);

// The URL again without its password ("rediss://bench@cache:6380/2"), for records and logs.
// A record's lone word before '@' is therefore a user, never a password.
std::string Redacted(const ServerUrl& url);

}  // namespace dfbench::protocol
