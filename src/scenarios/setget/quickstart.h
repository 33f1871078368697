// The `quickstart` scenario: a setup that lives for one run.
#pragma once

#include <functional>

#include "core/clock.h"
#include "core/error.h"
#include "results/schema.h"
#include "scenarios/frame/run_outcome.h"
#include "scenarios/setget/run_benchmark.h"
#include "scenarios/setup/lifecycle.h"

namespace dfbench::scenarios {

// Shows a run's outcome (the command line's step) before the setup goes.
using PublishRun = std::function<void(const RunOutcome<results::RunResults>&)>;

// Creates the setup (named by a timestamp when `setup_options.id` is empty), runs the benchmark
// on the requested engines the setup found (the others were reported while locating them),
// hands what it produced to `publish`, then destroys the setup unless `keep_setup`. A setup that
// fails after its AWS stack exists (a host that never takes SSH, an install, Ctrl+C) has the
// stack deleted too, unless `keep_setup`, which names it with its cost and the destroy command.
// Returns the first error among the setup, the run and the destroy, each already a line on
// stderr. The setup's name and record take `clock`'s wall time.
core::Status Quickstart(SetupOptions setup_options, SetGetOptions run_options, bool keep_setup,
                        const PublishRun& publish, const core::Clock& clock = core::RealClock());

}  // namespace dfbench::scenarios
