#include "scenarios/server_counters.h"

#include <set>

#include "protocol/blocking_client.h"

namespace dfbench::scenarios {
namespace {

uint64_t ParseCalls(const std::string& value) {
  // "calls=123,usec=456,usec_per_call=3.7,..."
  auto pos = value.find("calls=");
  if (pos == std::string::npos) return 0;
  return std::strtoull(value.c_str() + pos + 6, nullptr, 10);
}

}  // namespace

core::Result<uint64_t> ServerDataOps(const std::string& address, int port,
                                     engines::Protocol protocol) {
  auto client = protocol::BlockingClient::Connect(address, port, std::chrono::seconds(5));
  if (!client) return tl::unexpected(client.error());
  if (protocol == engines::Protocol::kMemcacheText) {
    auto lines = client->MemcacheCommand("stats");
    if (!lines) return tl::unexpected(lines.error());
    uint64_t ops = 0;
    for (const auto& line : *lines) {
      if (line.rfind("STAT cmd_get ", 0) == 0) ops += std::strtoull(line.c_str() + 13, nullptr, 10);
      if (line.rfind("STAT cmd_set ", 0) == 0) ops += std::strtoull(line.c_str() + 13, nullptr, 10);
    }
    return ops;
  }
  auto reply = client->Command({"INFO", "commandstats"});
  if (!reply) return tl::unexpected(reply.error());
  if (reply->is_error()) return core::Fail(core::ErrorKind::kFailure, "INFO: " + reply->str);
  static const std::set<std::string> kControl = {"info",   "ping",     "config", "flushall",
                                                 "hello",  "auth",     "client", "command",
                                                 "select", "shutdown", "debug",  "flushdb"};
  uint64_t ops = 0;
  for (const auto& [key, value] : protocol::ParseInfo(reply->str)) {
    if (key.rfind("cmdstat_", 0) != 0) continue;
    std::string name = key.substr(8);
    if (auto bar = name.find('|'); bar != std::string::npos) name = name.substr(0, bar);
    if (kControl.count(name)) continue;
    ops += ParseCalls(value);
  }
  return ops;
}

}  // namespace dfbench::scenarios
