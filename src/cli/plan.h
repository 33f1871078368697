// What setup, quickstart and destroy are about to change, in plain English: shown before the
// confirmation prompt and by --dry-run.
#pragma once

#include <string>

#include "scenarios/setup/lifecycle.h"
#include "state/state.h"

namespace dfbench::cli {

// The plan of `setup` (or `quickstart`, which then benchmarks and, unless `keep`, destroys).
// `options.id` must be set.
std::string SetupPlan(const scenarios::SetupOptions& options, bool quickstart, bool keep);

// --dry-run of setup and quickstart: prints `plan` and stops. On aws it also saves the template
// setup would apply as <setup>/stack.yaml (with the setup's key pair, which setup then reuses),
// without any AWS call; elsewhere nothing is written. Exits on error.
void DryRun(const scenarios::SetupOptions& options, const std::string& plan);

// The plan of `destroy` for a recorded setup.
std::string DestroyPlan(const state::SetupState& setup);

}  // namespace dfbench::cli
