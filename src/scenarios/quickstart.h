// The `quickstart` scenario: a setup that lives for one run.
#pragma once

#include "core/error.h"
#include "scenarios/lifecycle.h"
#include "scenarios/run_benchmark.h"
#include "scenarios/run_output.h"

namespace dfbench::scenarios {

// Creates the setup, runs the benchmark on the requested engines the setup found (the others
// were reported while locating them), publishes the results in `format`, then destroys the
// setup unless `keep_setup`. Returns the exit code: the run's, or the kind of what stopped it
// or the destroy (each a line on stderr). An error when the setup could not be created.
core::Result<int> Quickstart(const SetupOptions& setup_options, RunOptions run_options,
                             OutputFormat format, bool keep_setup);

}  // namespace dfbench::scenarios
