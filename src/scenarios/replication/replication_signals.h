// What INFO replication says about a master and its replica: which phase of its sync a replica
// is in, how many replicas a master still has, and the line a sync wait ends with when its
// deadline passes. Checked on real replies of Dragonfly (tests/fixtures/info_replication/),
// Redis and Valkey.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace dfbench::scenarios {

enum class ReplicaPhase {
  kNoAnswer,    // empty INFO: the replica did not answer
  kNotReplica,  // role is not slave/replica
  // Not linked to its master (before the first link, or after losing it), or linked and
  // preparing the sync (Dragonfly: link up, master_sync_in_progress 0, no slave_repl_offset).
  kConnecting,
  kFullSync,    // master_sync_in_progress:1 (Redis: link still down; Dragonfly: link up)
  kStableSync,  // link up, master_sync_in_progress 0 and slave_repl_offset present
};

// The phase a replica's INFO replication shows. Stable sync needs all three fields: Dragonfly
// reports the link up before its full sync starts and shows slave_repl_offset only once it is
// in stable sync (its log's "Transitioned into stable sync"); Redis and Valkey report the link
// up only after loading the master's RDB.
ReplicaPhase ReadReplicaPhase(const std::string& info_replication);

// "connecting", "full sync", ...: the phase in words.
const char* PhaseName(ReplicaPhase phase);

// True once the replica is in stable sync: its first full sync is over.
bool FullSyncDone(const std::string& info_replication);

// The fields the phase is read from, as one line: "role:slave master_link_status:down
// master_sync_in_progress:0 no slave_repl_offset"; "no answer" for an empty INFO.
std::string SummarizeReplicaInfo(const std::string& info_replication);

// How long a replica may take to reach each phase, from its start (Dragonfly) or REPLICAOF.
struct SyncDeadlines {
  std::chrono::seconds linked;  // out of kConnecting (full sync or stable sync)
  std::chrono::seconds stable;  // kStableSync
};

// "" while the wait may go on: `elapsed` since the sync started, `info_replication` the
// replica's latest, `full_sync_seen` whether an earlier poll saw it in full sync (a sync that
// began and fell back is not one that never began). Otherwise the line the case fails with, naming
// the signal waited for and what INFO showed instead: "the replica did not start its full sync with
// the master within 60 s (waited for master_sync_in_progress:1 or stable sync); its INFO
// replication showed role:slave master_link_status:down master_sync_in_progress:0 no
// slave_repl_offset (connecting)".
std::string ExpiredSyncWait(const std::string& info_replication, bool full_sync_seen,
                            std::chrono::milliseconds elapsed, const SyncDeadlines& deadlines);

// DBSIZE of a master and its replica once the load has stopped; -1 where one did not answer.
struct KeyCounts {
  int64_t master = -1;
  int64_t replica = -1;
};

// True when both answered and the replica holds as many keys as its master: with no more
// writes, it has caught up.
bool CaughtUp(const KeyCounts& keys);

// The line a catch-up wait ends with when `limit` passed: "the replica did not catch up with
// its master within 30 s of the load's end (waited for the same DBSIZE on both); the master
// held 3205904 keys, the replica 3205100".
std::string CatchUpExpired(const KeyCounts& keys, std::chrono::seconds limit);

// connected_slaves of a master's INFO replication; nullopt when absent or not a number.
std::optional<int> ConnectedReplicas(const std::string& info_replication);

}  // namespace dfbench::scenarios
