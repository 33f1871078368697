// Who and when a result file comes from: the run's id (its directory's name) and the context
// block every result file carries.
#pragma once

#include <filesystem>
#include <string>

#include "core/clock.h"
#include "drivers/driver.h"
#include "results/schema.h"
#include "state/state.h"

namespace dfbench::scenarios {

// A timestamp id of `clock`'s wall time for a new directory under `parent`, suffixed ("-2")
// when taken.
std::string NewRunId(const std::filesystem::path& parent,
                     const core::Clock& clock = core::RealClock());

// The context block of a result file written from this setup with this driver.
results::Context MakeContext(const state::SetupState& setup, const drivers::Driver& driver);

}  // namespace dfbench::scenarios
