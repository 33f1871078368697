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
// config.progress; prints nothing else.
core::Result<Report> Run(const Config& config);

}  // namespace dfbench::loadgen
