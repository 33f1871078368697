#include "scenarios/replication/replication_signals.h"

#include <charconv>

#include "core/format.h"
#include "protocol/blocking_client.h"

namespace dfbench::scenarios {

ReplicaPhase ReadReplicaPhase(const std::string& info_replication) {
  using protocol::InfoField;
  if (info_replication.empty()) return ReplicaPhase::kNoAnswer;
  const std::string role = InfoField(info_replication, "role");
  if (role != "slave" && role != "replica") return ReplicaPhase::kNotReplica;
  if (InfoField(info_replication, "master_sync_in_progress") == "1") return ReplicaPhase::kFullSync;
  if (InfoField(info_replication, "master_link_status") == "up" &&
      InfoField(info_replication, "master_sync_in_progress") == "0" &&
      !InfoField(info_replication, "slave_repl_offset").empty()) {
    return ReplicaPhase::kStableSync;
  }
  return ReplicaPhase::kConnecting;
}

const char* PhaseName(ReplicaPhase phase) {
  switch (phase) {
    case ReplicaPhase::kNoAnswer:
      return "no answer";
    case ReplicaPhase::kNotReplica:
      return "not a replica";
    case ReplicaPhase::kConnecting:
      return "connecting";
    case ReplicaPhase::kFullSync:
      return "full sync";
    case ReplicaPhase::kStableSync:
      return "stable sync";
  }
  return "?";
}

bool FullSyncDone(const std::string& info_replication) {
  return ReadReplicaPhase(info_replication) == ReplicaPhase::kStableSync;
}

std::string SummarizeReplicaInfo(const std::string& info_replication) {
  if (info_replication.empty()) return "no answer";
  std::string line;
  for (const char* key :
       {"role", "master_link_status", "master_sync_in_progress", "slave_repl_offset"}) {
    const std::string value = protocol::InfoField(info_replication, key);
    if (!line.empty()) line += ' ';
    line += value.empty() ? std::string("no ") + key : std::string(key) + ":" + value;
  }
  return line;
}

std::string ExpiredSyncWait(const std::string& info_replication, bool full_sync_seen,
                            std::chrono::milliseconds elapsed, const SyncDeadlines& deadlines) {
  const ReplicaPhase phase = ReadReplicaPhase(info_replication);
  if (phase == ReplicaPhase::kStableSync) return "";
  // The link's deadline first: a replica that never started its sync is named as such.
  const bool linked = full_sync_seen || phase == ReplicaPhase::kFullSync;
  const char* what = nullptr;
  const char* signal = nullptr;
  std::chrono::seconds limit{};
  if (!linked && elapsed >= deadlines.linked) {
    what = "start its full sync with the master";
    signal = "master_sync_in_progress:1 or stable sync";
    limit = deadlines.linked;
  } else if (elapsed >= deadlines.stable) {
    what = "reach stable sync";
    signal = "master_link_status:up, master_sync_in_progress:0 and slave_repl_offset";
    limit = deadlines.stable;
  } else {
    return "";
  }
  return core::Format(
      "the replica did not {} within {} s (waited for {}); its INFO replication showed {} ({})",
      what, limit.count(), signal, SummarizeReplicaInfo(info_replication), PhaseName(phase));
}

bool CaughtUp(const KeyCounts& keys) {
  return keys.master >= 0 && keys.replica == keys.master;
}

std::string CatchUpExpired(const KeyCounts& keys, std::chrono::seconds limit) {
  auto count = [](int64_t n) { return n < 0 ? std::string("no answer") : std::to_string(n); };
  return core::Format(
      "the replica did not catch up with its master within {} s of the load's end (waited for "
      "the same DBSIZE on both); the master held {} keys, the replica {}",
      limit.count(), count(keys.master), count(keys.replica));
}

std::optional<int> ConnectedReplicas(const std::string& info_replication) {
  const std::string text = protocol::InfoField(info_replication, "connected_slaves");
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

}  // namespace dfbench::scenarios
