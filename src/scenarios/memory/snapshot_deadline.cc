#include "scenarios/memory/snapshot_deadline.h"

#include <algorithm>

#include "core/format.h"

namespace dfbench::scenarios {

std::chrono::seconds SnapshotLimit(uint64_t keys, int value_size, std::chrono::seconds given) {
  if (given.count() > 0) return given;
  const uint64_t bytes = keys * static_cast<uint64_t>(std::max(value_size, 0));
  const uint64_t write_sec = (bytes + kSnapshotBytesPerSecond - 1) / kSnapshotBytesPerSecond;
  return kSnapshotLimitFloor + std::chrono::seconds(static_cast<int64_t>(write_sec));
}

std::string SnapshotStuckMessage(std::chrono::seconds limit, bool given,
                                 const std::string& progress) {
  return core::Format(
      "the snapshot did not end within {}s ({}): waited for INFO persistence to show no save "
      "in progress, it last showed {}",
      limit.count(),
      given ? "the snapshot timeout"
            : "derived from keys x value size; the snapshot timeout sets it",
      progress.empty() ? "no save fields" : progress);
}

}  // namespace dfbench::scenarios
