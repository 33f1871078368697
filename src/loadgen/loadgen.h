// The load generator's entry point: run a validated Config against one server.
#pragma once

#include "core/error.h"
#include "loadgen/config.h"
#include "loadgen/report.h"

namespace dfbench::loadgen {

// Runs the workload and returns its report. Checks the server first: unreachable, refused,
// a rejected password or a required but missing one fail with kEnvironment before any load
// is sent; a bad command template fails with kUsage. A SIGINT/SIGTERM (core::InterruptRequested)
// stops the run early: the report comes back with interrupted = true. Connection losses during
// the run are counted in the report, not failures. Prints the progress line on stderr per
// config.progress, numbered `run` (memtier's "[RUN #2 ...]" of its --run-count); prints nothing
// else. One run: the caller repeats it for config.run_count.
core::Result<Report> Run(const Config& config, int run = 1);

}  // namespace dfbench::loadgen
