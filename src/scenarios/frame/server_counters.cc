#include "scenarios/frame/server_counters.h"

#include <cctype>
#include <set>

#include "protocol/server_endpoint.h"
#include "scenarios/frame/engine_control.h"

namespace dfbench::scenarios {
namespace {

const std::set<std::string, std::less<>>& ControlCommands() {
  static const std::set<std::string, std::less<>> kControl = {
      "info",    "ping",     "config",   "flushall", "hello",   "auth",   "client",
      "command", "select",   "shutdown", "debug",    "flushdb", "dbsize", "cluster",
      "asking",  "readonly", "scan",     "unlink",   "acl"};
  return kControl;
}

uint64_t ParseCalls(const std::string& value) {
  // "calls=123,usec=456,usec_per_call=3.7,..."
  auto pos = value.find("calls=");
  if (pos == std::string::npos) return 0;
  return std::strtoull(value.c_str() + pos + 6, nullptr, 10);
}

}  // namespace

core::Result<uint64_t> ServerDataOps(const protocol::ServerEndpoint& control,
                                     engines::Protocol protocol) {
  auto client = protocol::ConnectTo(control, kEngineControlTimeout);
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
  return DataOpsFromCommandStats(reply->str);
}

uint64_t DataOpsFromCommandStats(const std::string& info_commandstats) {
  uint64_t ops = 0;
  for (const auto& [key, value] : protocol::ParseInfo(info_commandstats)) {
    if (key.rfind("cmdstat_", 0) != 0) continue;
    std::string name = key.substr(8);
    // Redis 7 names subcommands ("config|get"), Dragonfly too ("acl setuser"); they count as
    // their command.
    if (auto cut = name.find_first_of("| "); cut != std::string::npos) name = name.substr(0, cut);
    if (IsControlCommand(name)) continue;
    ops += ParseCalls(value);
  }
  return ops;
}

bool IsControlCommand(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ControlCommands().count(lower) > 0;
}

}  // namespace dfbench::scenarios
