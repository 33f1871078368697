// --client-profile: one engine driven with its own connection shape, as each vendor tuned the
// client for its own engine (run, quickstart, run-commands, run-commands-dfly). The default
// stays the same load for every engine; a profile is recorded in the engine's results row and
// marked in its tables.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/load.h"
#include "engines/engine.h"

namespace dfbench::cli {

// Repeatable, one per engine: ENGINE:threads=N,clients=N,pipeline=N, any of the three; what a
// profile leaves out is the run's.
void AddClientProfileFlag(CLI::App* sub, std::vector<std::string>* profiles);

// --loadgen-processes: load generator processes on the client, each on its share of the
// client's CPUs, the load split among them and their histograms merged.
// --per-client beside it: the table shows each generator's part of each trial.
void AddLoadgenProcessesFlag(CLI::App* sub, int* processes, bool* per_client);
// kUsage unless every engine's load (the run's, or its profile's) has a thread per process.
void CheckLoadgenProcesses(int processes, const core::Load& load,
                           const std::map<std::string, core::ClientProfile>& profiles);

// The profiles by engine name. Throws ExitError(kUsage) with one line for a malformed one, a
// setting out of its range, an engine given twice or one not among `engines`.
std::map<std::string, core::ClientProfile> ParseClientProfiles(
    const std::vector<std::string>& given, const std::vector<const engines::EngineSpec*>& engines);

}  // namespace dfbench::cli
