// What the options of every benchmark on a setup hold, whatever it measures: which engines,
// the builds to install first, how they are started, the load generator, each engine's own
// client profile when asked for, the live metrics its generators send, and the pause between
// engines. A scenario's own options derive from it and add what it measures.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "core/live_metrics.h"
#include "core/load.h"
#include "drivers/driver.h"
#include "engines/engine.h"
#include "engines/install.h"

namespace dfbench::scenarios {

struct BenchOptions {
  std::vector<const engines::EngineSpec*> engines;  // each must be installed in the setup
  // engine name -> --<engine>_version: installed into the setup before the run (see
  // BenchSession::PrepareRun); empty: the setup's builds.
  std::map<std::string, engines::VersionSpec> versions;
  engines::Tuning tuning;  // cpus are filled from the fleet
  // engine name -> its own client profile (--client-profile); an engine without one gets the
  // run's load, the same for every engine.
  std::map<std::string, core::ClientProfile> client_profiles;
  // Load generator processes on the client, the load split among them (--loadgen-processes).
  int loadgen_processes = 1;
  bool per_client = false;  // the table shows each generator's part (--per-client)
  // Sent by every generator of every pass, labelled by the pass (RunPass); off by default.
  core::LiveMetrics live_metrics;
  std::chrono::milliseconds cooldown = std::chrono::seconds(30);
  drivers::Driver* driver = nullptr;
};

}  // namespace dfbench::scenarios
