// How long the memory scenario waits for a BGSAVE to end, and what it says when it gives up.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace dfbench::scenarios {

// What a derived limit allows: a floor for small data sets, plus the time to write the data at a
// pessimistic rate (a slow disk, an engine busy with update traffic).
inline constexpr std::chrono::seconds kSnapshotLimitFloor{120};
inline constexpr uint64_t kSnapshotBytesPerSecond = uint64_t{4} << 20;

// How long one BGSAVE may run: `given` when it is set (> 0, --snapshot-timeout), otherwise
// kSnapshotLimitFloor plus keys x value_size bytes at kSnapshotBytesPerSecond, rounded up.
std::chrono::seconds SnapshotLimit(uint64_t keys, int value_size, std::chrono::seconds given);

// The line that ends a wait which reached `limit`: the signal waited for, where the limit came
// from, and `progress` (PersistenceState::progress), what INFO persistence showed last.
std::string SnapshotStuckMessage(std::chrono::seconds limit, bool given,
                                 const std::string& progress);

}  // namespace dfbench::scenarios
