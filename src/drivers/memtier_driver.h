// memtier_benchmark as the load generator: the same Load and Pass as the built-in driver, run on
// the client host with memtier's own flags, its --json-out-file report kept and parsed.
//
// Its command line: fills use P with an explicit per-client request count over ExactFillLayout
// connections (memtier's "-n allkeys" ignores P in arbitrary-command mode and rounds slices
// up). kUsage for what memtier cannot express (a per-connection rate, a fill without a
// command). Not found: "memtier_benchmark not found on the client host (install it or pass
// --memtier-binary PATH)".
#pragma once

#include "drivers/external_tool_driver.h"

namespace dfbench::drivers {

const ToolSpec& MemtierSpec();
using MemtierDriver = ToolDriver<&MemtierSpec>;

}  // namespace dfbench::drivers
