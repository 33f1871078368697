// dfly_bench (Dragonfly's load generator) as the load generator of `run-commands-dfly`. Its
// --json_out_file report has memtier's layout ("ALL STATS" / "Totals" first, then one section
// per operation named "Sets"/"Gets" or the UPPER-CASE first word of --command) but no error
// count, which only its stdout has: ParseDflyBenchOutput reads both.
//
// Its command line (absl --flag=value form): threads are --proactor_threads, clients -c (per
// thread); --qps is always explicit (its default is 20, not unlimited). Key patterns map
// R->U, S->S, G->N, Z->Z; a fill walks the range with --key_dist=S over one connection per
// thread, the thread count dividing the range (ExactFillLayout). kUsage for what dfly_bench
// cannot express (the P pattern outside a fill, a fill without a command). Not found:
// "dfly_bench not found on the client host (build it from the Dragonfly sources, pass
// --dfly-bench-binary PATH, or on an ssh client let setup build it: ...)".
#pragma once

#include "drivers/external_tool_driver.h"

namespace dfbench::drivers {

const ToolSpec& DflyBenchSpec();
using DflyBenchDriver = ToolDriver<&DflyBenchSpec>;

}  // namespace dfbench::drivers
