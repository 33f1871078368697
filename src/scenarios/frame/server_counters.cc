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

// "calls=123,usec=456,usec_per_call=3.7,rejected_calls=2,failed_calls=0": the calls the server
// ran and those it refused before running them (Redis 7: out of memory, wrong arity, ...), which
// were answered with an error all the same. failed_calls are among the calls already; INFO
// errorstats counts replies, those of failed calls too, so it would count some twice.
uint64_t ParseCalls(const std::string& value) {
  uint64_t calls = 0;
  size_t start = 0;
  while (start < value.size()) {
    size_t end = value.find(',', start);
    if (end == std::string::npos) end = value.size();
    const std::string_view field(value.data() + start, end - start);
    for (const std::string_view key : {"calls=", "rejected_calls="}) {
      if (field.substr(0, key.size()) == key) {
        calls += std::strtoull(value.c_str() + start + key.size(), nullptr, 10);
      }
    }
    start = end + 1;
  }
  return calls;
}

}  // namespace

core::Result<uint64_t> ServerDataOps(const protocol::ServerEndpoint& control,
                                     core::Protocol protocol) {
  auto client = protocol::ConnectTo(control, kEngineControlTimeout);
  if (!client) return tl::unexpected(client.error());
  if (protocol == core::Protocol::kMemcacheText) {
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
