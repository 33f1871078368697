// Memory of a process tree on a host, read from /proc there in one small shell command: the
// tree's PSS (pages shared between a process and its forked child counted once, split
// between them), its RSS sum beside it, and the host's MemAvailable as a cross-check.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"
#include "hosts/host.h"

namespace dfbench::hosts {

struct ProcessTreeMemory {
  int processes = 0;  // the root and its descendants that were alive at the read
  uint64_t pss_bytes = 0;
  uint64_t rss_bytes = 0;
  uint64_t mem_available_bytes = 0;  // the host's /proc/meminfo MemAvailable
};

// Reads the tree rooted at `root_pid` on `host` (smaps_rollup of each process, Linux 4.14+).
// kFailure when the root is gone or the output cannot be read.
core::Result<ProcessTreeMemory> ReadProcessTreeMemory(Host& host, int root_pid);

// Parses the command's output: "<processes> <rss kB> <pss kB>\n<MemAvailable kB>\n".
core::Result<ProcessTreeMemory> ParseProcessTreeMemory(const std::string& out);

}  // namespace dfbench::hosts
