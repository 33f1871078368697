#include "scenarios/memory/memory_probes.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "core/text.h"
#include "protocol/blocking_client.h"
#include "scenarios/frame/engine_control.h"

namespace dfbench::scenarios {
namespace {

core::Result<protocol::BlockingClient> Connect(const std::string& address, int port) {
  return protocol::BlockingClient::Connect(address, port, kEngineControlTimeout);
}

// A Redis-protocol command whose error reply, or missing reply, is a failure naming the command
// (a timeout then says which answer it waited for).
core::Result<protocol::Reply> Ask(protocol::BlockingClient& client,
                                  const std::vector<std::string>& args) {
  auto reply = client.Command(args);
  if (!reply) {
    // "INFO persistence", "DEBUG POPULATE", "BGSAVE": the command and its subcommand.
    const std::string name = args.size() > 1 ? args[0] + " " + args[1] : args[0];
    return tl::unexpected(core::WithContext(reply.error(), name));
  }
  if (reply->is_error()) return core::Fail(core::ErrorKind::kFailure, args[0] + ": " + reply->str);
  return reply;
}

core::Result<std::string> Info(const std::string& address, int port, const std::string& section) {
  auto client = Connect(address, port);
  if (!client) return tl::unexpected(client.error());
  auto reply = Ask(*client, {"INFO", section});
  if (!reply) return tl::unexpected(reply.error());
  return reply->str;
}

// A value of memcached's `command` ("stats", "stats slabs").
core::Result<uint64_t> MemcachedStat(const std::string& address, int port,
                                     const std::string& command, const std::string& name) {
  auto client = Connect(address, port);
  if (!client) return tl::unexpected(client.error());
  auto lines = client->MemcacheCommand(command);
  if (!lines) return tl::unexpected(lines.error());
  const std::string prefix = "STAT " + name + " ";
  for (const auto& line : *lines) {
    if (line.rfind(prefix, 0) == 0) return std::strtoull(line.c_str() + prefix.size(), nullptr, 10);
  }
  return core::Fail(core::ErrorKind::kFailure, "memcached " + command + " has no " + name);
}

core::Result<uint64_t> InfoNumber(const std::string& address, int port, const std::string& section,
                                  const std::string& field) {
  auto info = Info(address, port, section);
  if (!info) return tl::unexpected(info.error());
  const std::string value = protocol::InfoField(*info, field);
  if (value.empty()) return core::Fail(core::ErrorKind::kFailure, "INFO has no " + field);
  return std::strtoull(value.c_str(), nullptr, 10);
}

bool SaysItFailed(const std::string& line) {
  std::string lower = line;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* word : {"fail", "error", "can't", "cannot", "denied", "read-only", "no space"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

core::Result<uint64_t> ServerMemoryBytes(const std::string& address, int port,
                                         core::Protocol protocol) {
  if (protocol == core::Protocol::kMemcacheText) {
    return MemcachedStat(address, port, "stats slabs", "total_malloced");
  }
  return InfoNumber(address, port, "memory", "used_memory");
}

core::Result<uint64_t> ServerItemCount(const std::string& address, int port,
                                       core::Protocol protocol) {
  if (protocol == core::Protocol::kMemcacheText) {
    return MemcachedStat(address, port, "stats", "curr_items");
  }
  auto client = Connect(address, port);
  if (!client) return tl::unexpected(client.error());
  auto reply = Ask(*client, {"DBSIZE"});
  if (!reply) return tl::unexpected(reply.error());
  return static_cast<uint64_t>(std::max<int64_t>(reply->integer, 0));
}

core::Status DebugPopulate(const std::string& address, int port, uint64_t keys, int value_size) {
  auto client = Connect(address, port);
  if (!client) return tl::unexpected(client.error());
  // Millions of keys take seconds; the engine answers only when it is done.
  client->set_timeout(std::chrono::minutes(30));
  auto reply =
      Ask(*client, {"DEBUG", "POPULATE", std::to_string(keys), "key", std::to_string(value_size)});
  if (!reply) return tl::unexpected(reply.error());
  return core::Ok();
}

core::Status StartBgsave(const std::string& address, int port) {
  auto client = Connect(address, port);
  if (!client) return tl::unexpected(client.error());
  auto reply = Ask(*client, {"BGSAVE"});
  if (!reply) return tl::unexpected(reply.error());
  return core::Ok();
}

PersistenceState ParsePersistence(const std::string& info) {
  PersistenceState s;
  auto field = [&](const char* key) { return protocol::InfoField(info, key); };
  // Dragonfly reports its snapshots in `saving` and, once it has run a BGSAVE, keeps
  // rdb_bgsave_in_progress at 1 after the save is over (v1.40 does): where `saving` is present it
  // alone tells.
  const std::string saving = field("saving");
  s.in_progress = saving.empty() ? field("rdb_bgsave_in_progress") == "1" : saving == "1";
  s.last_failed = field("rdb_last_bgsave_status") == "err";
  // Dragonfly keeps its last failure beside its last success: the later one is the last save.
  const std::string failed_at = field("last_failed_save");
  if (!failed_at.empty()) {
    const double failed = std::strtod(failed_at.c_str(), nullptr);
    const double succeeded = std::strtod(field("last_success_save").c_str(), nullptr);
    s.last_failed = failed > 0 && failed >= succeeded;
    if (s.last_failed) s.last_error = field("last_error");
  }
  std::string duration = field("rdb_last_bgsave_time_sec");
  if (duration.empty()) duration = field("last_success_save_duration_sec");
  if (!duration.empty())
    s.last_duration_sec = std::max(0.0, std::strtod(duration.c_str(), nullptr));
  // Redis / Valkey and Dragonfly spell them differently; each says what it has, in its order.
  static const std::set<std::string> kProgress = {"saving",
                                                  "rdb_bgsave_in_progress",
                                                  "current_snapshot_perc",
                                                  "current_save_keys_processed",
                                                  "current_save_keys_total",
                                                  "current_save_duration_sec",
                                                  "rdb_current_bgsave_time_sec",
                                                  "rdb_last_bgsave_status",
                                                  "last_error"};
  for (const auto& [key, value] : protocol::ParseInfo(info)) {
    if (kProgress.count(key)) s.progress += (s.progress.empty() ? "" : ", ") + key + ":" + value;
  }
  return s;
}

core::Result<PersistenceState> ReadPersistence(const std::string& address, int port) {
  auto info = Info(address, port, "persistence");
  if (!info) return tl::unexpected(info.error());
  return ParsePersistence(*info);
}

std::string SnapshotFailureLine(const std::string& before, const std::string& after) {
  std::set<std::string> old;
  std::istringstream in_before(before);
  for (std::string line; std::getline(in_before, line);) old.insert(core::Trim(line));
  std::vector<std::string> fresh;
  std::istringstream in_after(after);
  for (std::string line; std::getline(in_after, line);) {
    line = core::Trim(line);
    if (!line.empty() && old.count(line) == 0) fresh.push_back(line);
  }
  for (const auto& line : fresh) {
    if (SaysItFailed(line)) return line;
  }
  return fresh.empty() ? "" : fresh.back();
}

}  // namespace dfbench::scenarios
