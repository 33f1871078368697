// One case of the replication scenario on one engine: master, preload, load, replica, full
// sync, watched load, teardown.
#pragma once

#include <filesystem>

#include "providers/provider.h"
#include "scenarios/replication/replication.h"
#include "state/state.h"

namespace dfbench::scenarios {

struct ReplicationCaseSetting {
  providers::Fleet& fleet;
  const state::EngineInstall& install;  // the engine's binary, on the server and the replica
  const engines::EngineSpec& spec;
  const ReplicationOptions& options;
  std::filesystem::path raw_dir;  // raw generator reports: <engine>-<case>-{preload,load}.json
};

// Runs `c` and fills `out` (run_name, engine, flags, args, series, sync_duration_ms,
// termination_reason, error). Progress goes to stderr as "[engine case] ..." lines. Returns
// false when an interrupt ended the case (the run stops), true otherwise, failed or not.
bool RunReplicationCase(const ReplicationCaseSetting& s, const ReplicationCaseSpec& c,
                        results::ReplicationCase* out);

}  // namespace dfbench::scenarios
