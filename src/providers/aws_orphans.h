// dfbench's stacks as AWS knows them, whichever setup made them: every stack tagged
// `dfbench:setup` in the chosen regions, with its age, its hourly cost and the local setup that
// records it, if any. One that no setup records (made elsewhere, or its setup's folder gone) is
// an orphan that keeps billing; DestroyOrphan removes one.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/error.h"

namespace dfbench::providers {

struct TaggedStack {
  std::string name;
  std::string id;
  std::string region;
  std::string setup_id;  // its dfbench:setup tag
  std::string status;
  std::string owner;                        // its dfbench:owner tag ("" when none)
  std::chrono::seconds age{0};              // since CreationTime; 0 when unknown
  std::vector<std::string> instance_types;  // of its instances still there
  std::string known_by;                     // the local setup that records it; "" = an orphan
};

// The dfbench stacks of `regions` (every region the account has, when `regions` is empty),
// by region then name, their ages as of `clock`'s wall time. Errors of one region stop the
// listing, naming the region.
core::Result<std::vector<TaggedStack>> ListTaggedStacks(
    std::vector<std::string> regions, const core::Clock& clock = core::RealClock());

// The stack `name` in `region`, to destroy it without a setup: kUsage when it is not
// dfbench's (no dfbench:setup tag) or when a local setup records it (destroy that setup
// instead); kNotFound when AWS has no such stack.
core::Result<TaggedStack> FindOrphan(const std::string& name, const std::string& region,
                                     const core::Clock& clock = core::RealClock());

// Deletes the stack FindOrphan found and waits (timed by `clock`) until it is gone.
core::Status DestroyOrphan(const TaggedStack& stack, core::Clock& clock = core::RealClock());

}  // namespace dfbench::providers
