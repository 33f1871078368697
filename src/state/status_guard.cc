#include <utility>

#include "core/check.h"
#include "state/state.h"

namespace dfbench::state {

core::Result<StatusGuard> StatusGuard::Enter(SetupState* state, std::string working_status) {
  DFB_CHECK(state != nullptr);
  std::string previous = state->status;
  state->status = std::move(working_status);
  state->active.reset();  // stamped afresh for this process by Save
  if (IsWorkingStatus(state->status)) {
    state->active = ActiveCommand{.previous_status = IsWorkingStatus(previous) ? "" : previous};
  }
  if (auto saved = Save(state); !saved) {
    state->status = std::move(previous);
    return tl::unexpected(saved.error());
  }
  return StatusGuard(state, std::move(previous));
}

StatusGuard::StatusGuard(StatusGuard&& other) noexcept
    : state_(std::exchange(other.state_, nullptr)),
      previous_(std::move(other.previous_)),
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

core::Status StatusGuard::Finish(const std::string& final_status) {
  DFB_CHECK(state_ != nullptr);
  done_ = true;
  state_->status = final_status;
  return Save(state_);
}

}  // namespace dfbench::state
