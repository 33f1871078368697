// What a benchmark checks before anything starts: the engines it names are installed in the
// setup and speak the protocol its steps need, the load generator can run on the client host,
// and nothing else holds the engines' port.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "drivers/driver.h"
#include "engines/engine.h"
#include "providers/provider.h"
#include "state/state.h"

namespace dfbench::scenarios {

// kUsage naming the installed engines when one of `engines` is not installed in the setup.
core::Status CheckInstalled(const state::SetupState& setup,
                            const std::vector<const engines::EngineSpec*>& engines);

// kUsage "<engine><refusal>" for the first of `engines` that does not speak the Redis protocol
// (a scenario made of Redis commands).
core::Status CheckRedisProtocol(const std::vector<const engines::EngineSpec*>& engines,
                                const std::string& refusal);

// kUsage naming `scenario` when the setup's engines are endpoints dfbench does not run, for a
// scenario that starts and restarts its engines itself (run-memory, run-replication).
core::Status CheckStartsEngines(const providers::Fleet& fleet, const std::string& scenario);

// When the setup fixes the engines' port: kEnvironment, in one line, when something already
// listens there on the server, so a run stops before anything starts.
core::Status CheckEnginePort(providers::Fleet& fleet);

// Before a run: the engines are installed in the setup, the driver can run on the client host
// (Driver::Prepare) and nothing else listens on the engines' port; the first failure.
core::Status CheckRunnable(const state::SetupState& setup, providers::Fleet& fleet,
                           drivers::Driver& driver,
                           const std::vector<const engines::EngineSpec*>& engines);

}  // namespace dfbench::scenarios
