// The per-second series of a replication case cut at the replica's stable sync: what clients
// saw during the sync, and the sustained load after it, which alone makes the case's figures.
#pragma once

#include <cstddef>
#include <vector>

#include "results/replication_schema.h"

namespace dfbench::scenarios {

struct SplitSeries {
  std::vector<results::RepSample> sync_window;  // t_sec as given: seconds since the load started
  std::vector<results::RepSample> sustained;    // t_sec 1, 2, ...: seconds after the sync
};

// `samples`: one per second since the load started (t_sec = the second's end, 1, 2, ...).
// `sync_end_sec`: when the replica reported stable sync, on the same axis. A second that began
// before the sync ended belongs to the sync window (the one the sync ended in too, since part of
// it was before); the seconds after it are the sustained load, renumbered from 1 and cut after
// `max_sustained` (the test time: the load runs on a little while it is being stopped). A sync
// never reached (infinity) puts every second in the sync window.
SplitSeries SplitAtSync(const std::vector<results::RepSample>& samples, double sync_end_sec,
                        size_t max_sustained);

}  // namespace dfbench::scenarios
