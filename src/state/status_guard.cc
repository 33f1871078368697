#include <utility>

#include "core/check.h"
#include "state/state.h"

namespace dfbench::state {

core::Result<StatusGuard> StatusGuard::Enter(SetupState* state, SetupStatus working_status) {
  DFB_CHECK(state != nullptr);
  const SetupStatus previous = state->status;
  state->status = working_status;
  state->active.reset();  // stamped afresh for this process by Save
  if (IsWorkingStatus(state->status)) {
    state->active = ActiveCommand{};
    if (!IsWorkingStatus(previous)) state->active->previous_status = previous;
  }
  if (auto saved = Save(state); !saved) {
    state->status = previous;
    return tl::unexpected(saved.error());
  }
  return StatusGuard(state, previous);
}

StatusGuard::StatusGuard(StatusGuard&& other) noexcept
    : state_(std::exchange(other.state_, nullptr)),
      previous_(other.previous_),
      done_(other.done_) {}

StatusGuard::~StatusGuard() {
  if (state_ == nullptr || done_) return;
  state_->status = previous_;
  // Best effort on the way out: an error here must not mask the one being returned.
  try {
    (void)Save(state_);
  } catch (...) {
  }
}

core::Status StatusGuard::Finish(SetupStatus final_status) {
  DFB_CHECK(state_ != nullptr);
  done_ = true;
  state_->status = final_status;
  return Save(state_);
}

}  // namespace dfbench::state
