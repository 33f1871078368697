// What an aws setup still holds in AWS, read from its recorded state: the stack that keeps
// billing until `dfbench destroy`, whatever the setup's status (a failed setup keeps its stack
// so that the user can look, until destroy or quickstart deletes it).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "state/state.h"

namespace dfbench::providers {

struct BilledStack {
  std::string setup_id;
  std::string stack_name;  // "dfbench-<id>"
  std::string region;
  // One entry per instance: the instances the stack reported, else (a setup stopped while the
  // stack was coming up) the ones its flags planned.
  std::vector<std::string> instance_types;
};

// The stack `state` holds: an aws setup, not destroyed, whose stack id is recorded (setup
// records it as soon as CreateStack answers and forgets it once the stack is known gone), or
// whose CreateStack was sent without an answer that said what exists. nullopt otherwise.
std::optional<BilledStack> BilledStackOf(const state::SetupState& state);

// How long the stack has run by `now`, counted from the setup's creation (moments before
// CreateStack); 0 when the creation time cannot be read.
std::chrono::seconds UpTime(const state::SetupState& state,
                            std::chrono::system_clock::time_point now);

// The last line of a setup that failed and kept its stack, e.g.
//   setup perf failed and its stack is still running: dfbench-perf (c6i.2xlarge, c5.2xlarge)
//   in us-east-1, ~$0.680/hr on demand in us-east-1; delete it with: dfbench destroy --id perf
std::string StillRunningLine(const BilledStack& stack);

}  // namespace dfbench::providers
