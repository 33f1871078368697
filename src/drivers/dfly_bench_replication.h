// dfly_bench command lines of the replication scenario, exactly as the reference (and the
// upstream playground/replication-bench it mirrors) runs them, so that numbers compare.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/load.h"
#include "drivers/driver.h"

namespace dfbench::drivers {

struct DflyBenchShape {
  std::string binary;
  Target target;
  uint64_t key_maximum = 0;  // --preload-keys: the key range, not a count of keys written
  int value_size = 256;
  std::string report_path;  // --json_out_file
};

// The preload: `preload_time` (the reference's 30 s) of writes in core::kReplicationPreload's
// shape (4 threads x 15 connections, pipeline 10), unthrottled:
// "--proactor_threads=4 -c=15 --pipeline=10 --qps=0 --test_time=30 --ratio=1:0".
std::vector<std::string> DflyBenchPreloadArgs(const DflyBenchShape& shape,
                                              std::chrono::seconds preload_time);

// The load: core::kReplicationLoad's shape (one thread, two connections, pipeline 5),
// --qps=<per connection> (0 for maxload:
// omitted, dfly_bench would default to 20), for `test_time`.
std::vector<std::string> DflyBenchLoadArgs(const DflyBenchShape& shape, int64_t qps_per_connection,
                                           const core::Ratio& ratio,
                                           std::chrono::seconds test_time);

}  // namespace dfbench::drivers
