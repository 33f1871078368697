// Recovery from a command that died (kill -9, a crash, a lost machine) while it held a setup in
// a working status: its lock is gone with it, its status stayed.
#pragma once

#include "core/error.h"
#include "state/state.h"

namespace dfbench::scenarios {

// Called by a mutating command right after it took the setup's lock and loaded `setup`. When
// the status is a working one, the command that set it is dead (it would hold the lock), so:
// one line on stderr names it (command, pid, start), what it left on the hosts is stopped
// (Provider::StopLeftovers), the keys its runs wrote on a server the setup shares are removed
// (Provider::RemoveRunKeys), its runs are marked interrupted in the history and in their
// results.json, and the setup goes back to the stable status it came from (a setup that never
// became ready: "failed"), saved. Nothing happens for a stable status.
core::Status RecoverAbandoned(state::SetupState* setup);

}  // namespace dfbench::scenarios
