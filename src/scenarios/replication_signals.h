// What INFO replication says about a master and its replica: when a replica's full sync is
// over, and how many replicas a master still has.
#pragma once

#include <optional>
#include <string>

namespace dfbench::scenarios {

// True once a replica's INFO replication shows the end of its first full sync: role slave (or
// replica), master_link_status up, master_sync_in_progress 0 and slave_repl_offset present.
// All three are needed: Dragonfly reports the link up as soon as TCP connects and
// master_sync_in_progress 0 before the sync starts too, and shows slave_repl_offset only once
// the first full sync completed; Redis and Valkey report the link up only after the RDB load.
bool FullSyncDone(const std::string& info_replication);

// connected_slaves of a master's INFO replication; nullopt when absent or not a number.
std::optional<int> ConnectedReplicas(const std::string& info_replication);

}  // namespace dfbench::scenarios
