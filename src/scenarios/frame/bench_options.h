// What the options of every benchmark on a setup hold, whatever it measures: which engines,
// the builds to install first, how they are started, the load generator and the pause between
// engines. A scenario's own options derive from it and add what it measures.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

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
  std::chrono::milliseconds cooldown = std::chrono::seconds(30);
  drivers::Driver* driver = nullptr;
};

}  // namespace dfbench::scenarios
