// What the memory scenario asks the engine itself, over its own protocol: its memory figure and
// key count, DEBUG POPULATE, BGSAVE and the persistence state that tells when a snapshot ended.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"
#include "engines/engine.h"

namespace dfbench::scenarios {

// The engine's own figure for the memory it holds: INFO memory used_memory (Redis protocol),
// memcached's `stats slabs` total_malloced (its slab pages).
core::Result<uint64_t> ServerMemoryBytes(const std::string& address, int port,
                                         core::Protocol protocol);

// Keys held: DBSIZE (Redis protocol), memcached's curr_items.
core::Result<uint64_t> ServerItemCount(const std::string& address, int port,
                                       core::Protocol protocol);

// DEBUG POPULATE `keys` keys named "key:<n>" (n from 0) with `value_size`-byte values. kFailure
// with the engine's reply when it refuses.
core::Status DebugPopulate(const std::string& address, int port, uint64_t keys, int value_size);

// BGSAVE. kFailure with the engine's reply when it refuses to start one.
core::Status StartBgsave(const std::string& address, int port);

struct PersistenceState {
  bool in_progress = false;
  bool last_failed = false;      // the last snapshot failed
  std::string last_error;        // where the engine says why (Dragonfly's last_error)
  double last_duration_sec = 0;  // the engine's own figure for the last snapshot
  // The fields that say how a save goes, as the engine reported them ("saving:1,
  // current_snapshot_perc:42.5, ..."): what a message about a stuck snapshot quotes.
  std::string progress;
};

// Parses an INFO persistence body: Redis and Valkey (rdb_bgsave_in_progress,
// rdb_last_bgsave_status, rdb_last_bgsave_time_sec) and Dragonfly (saving, last_failed_save
// against last_success_save, last_error, last_success_save_duration_sec; its
// rdb_bgsave_in_progress is ignored, as it stays 1 after a BGSAVE ended).
PersistenceState ParsePersistence(const std::string& info);
core::Result<PersistenceState> ReadPersistence(const std::string& address, int port);

// The engine's own message about a failed snapshot among the log lines it wrote since `before`
// (the log's tail before the BGSAVE): the first new line that says it failed, else the last new
// line; "" when there is none.
std::string SnapshotFailureLine(const std::string& before, const std::string& after);

}  // namespace dfbench::scenarios
