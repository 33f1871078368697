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

// `processes` generators on each of the fleet's client hosts, each pinned to its share of the
// client's CPUs (round robin when there are fewer CPUs than processes), named by their host's
// role and process ("client process 2"); with several, each host's clock
// offset to this machine's measured (kEnvironment when a host cannot tell its time).
core::Result<std::vector<drivers::LoadClient>> LoadClients(const providers::Fleet& fleet,
                                                           int processes);

// How far `host`'s clock is ahead of this machine's, in microseconds: its time read over the
// command channel against the midpoint of the round trip.
core::Result<int64_t> ClockOffsetUs(hosts::Host& host);

// One pass by the fleet's generators (LoadClients): `driver` on the one client (its report's
// HdrHistogram files beside it), or drivers::RunSplit over several.
core::Result<results::TrialResult> RunPass(drivers::Driver& driver, const providers::Fleet& fleet,
                                           int processes, const drivers::Target& target,
                                           const core::Load& load, const core::Pass& pass,
                                           const std::filesystem::path& raw_report);

}  // namespace dfbench::scenarios
