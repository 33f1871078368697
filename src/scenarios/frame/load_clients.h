// The load generators of a run: the fleet's client running one generator, or several
// processes on it, each on its own share of the client's CPUs; and one pass through them.
#pragma once

#include <filesystem>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "drivers/driver.h"
#include "drivers/split_run.h"
#include "providers/provider.h"
#include "results/schema.h"

namespace dfbench::scenarios {

// `processes` generators on the fleet's client ("process 1", "process 2", ...), each pinned to
// its share of the client's CPUs (round robin when there are fewer CPUs than processes).
std::vector<drivers::LoadClient> LoadClients(const providers::Fleet& fleet, int processes);

// One pass: `driver` on the one client, or drivers::RunSplit over several.
core::Result<results::TrialResult> RunPass(drivers::Driver& driver,
                                           const std::vector<drivers::LoadClient>& clients,
                                           const drivers::Target& target, const core::Load& load,
                                           const core::Pass& pass,
                                           const std::filesystem::path& raw_report);

}  // namespace dfbench::scenarios
