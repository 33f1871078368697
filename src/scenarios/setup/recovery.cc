#include "scenarios/setup/recovery.h"

#include "core/format.h"
#include "core/log.h"
#include "providers/provider.h"
#include "scenarios/setup/history.h"

namespace dfbench::scenarios {
namespace {

// Where a setup goes back to when the command holding `working` died without saying.
state::SetupStatus StableStatusAfter(const state::SetupState& s) {
  if (s.active && s.active->previous_status &&
      !state::IsWorkingStatus(*s.active->previous_status)) {
    return *s.active->previous_status;
  }
  // A benchmark only starts from a ready setup; anything else may be half done.
  if (s.status == state::SetupStatus::kBenchmarking) return state::SetupStatus::kReady;
  return state::SetupStatus::kFailed;
}

}  // namespace

core::Status RecoverAbandoned(state::SetupState* setup) {
  if (!state::IsWorkingStatus(setup->status)) return core::Ok();
  const state::SetupStatus stable = StableStatusAfter(*setup);
  const state::ActiveCommand who = setup->active.value_or(state::ActiveCommand{});
  core::Note(core::Format(
      "the previous command on setup \"{}\" ({}, pid {}, started {}) died while {}; its runs are "
      "marked interrupted and the setup is {} again",
      setup->id, who.command.empty() ? "unknown" : who.command,
      who.pid > 0 ? std::to_string(who.pid) : "unknown",
      who.started_at.empty() ? "at an unknown time" : who.started_at,
      state::ToString(setup->status), state::ToString(stable)));
  auto provider = providers::MakeProvider(setup->provider);
  if (auto st = provider->StopLeftovers(*setup); !st) {
    core::Note("could not stop what it left running: " + st.error().message);
  }
  // Its keys on a server the setup shares: removed, or kept on record with what is left.
  if (auto st = provider->RemoveRunKeys(setup); !st) {
    core::Note("could not remove the keys it wrote: " + st.error().message);
  }
  InterruptRunningRecords(setup);
  setup->status = stable;
  return state::Save(setup);
}

}  // namespace dfbench::scenarios
