// What dfly_bench (Dragonfly's load generator) reports of one pass, read from both of its
// outputs, as the v1.40 build writes them (tests/fixtures/dfly_bench/). Its output is not a
// stable interface, so what is read is checked: a format this reader does not know is one error
// naming the file and what was expected, never a row of zeros.
//
// Which output is the source of truth for each figure:
//   - ops, latencies (p50, p99, p99.9, average; ms): the --json_out_file report's
//     "ALL STATS"."Totals" (the stdout has no p99.9 and only whole-histogram µs figures);
//   - errors: the stdout's "Got N error responses!" (the report has no error count; no such
//     line means none). Error replies are in the report's Count and latencies; ops excludes them;
//   - the stdout's "Overall number of requests" must equal the report's Totals.Count;
//   - duration: a time-boxed pass's --test_time (as for memtier); a request-counted one's stdout
//     "Total time" (the report's "Total duration" is truncated to whole milliseconds).
// Throughput is ops over that duration.
#pragma once

#include "drivers/driver.h"
#include "drivers/tool_runner.h"
#include "results/schema.h"

namespace dfbench::drivers {

// kUsage "<file>: <what was expected>" when either output is not in the known format.
core::Result<results::TrialResult> ParseDflyBenchOutput(const ToolOutput& output,
                                                        const core::Pass& pass);

}  // namespace dfbench::drivers
