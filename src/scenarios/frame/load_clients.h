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
#include "scenarios/frame/bench_options.h"

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

// `pass` sending `metrics` while it runs, labelled by the name of its raw report ("redis-t2"
// for .../redis-t2.json): a dashboard's run label names the file that holds its figures.
core::Pass WithLiveMetrics(core::Pass pass, const core::LiveMetrics& metrics,
                           const std::filesystem::path& raw_report);

// One pass by the generators of `o` (its driver, LoadClients of its processes, its live
// metrics: WithLiveMetrics): the driver on the one client (its report's HdrHistogram files
// beside it), or drivers::RunSplit over several.
core::Result<results::TrialResult> RunPass(const BenchOptions& o, const providers::Fleet& fleet,
                                           const drivers::Target& target, const core::Load& load,
                                           const core::Pass& pass,
                                           const std::filesystem::path& raw_report);

}  // namespace dfbench::scenarios
