// The setup lifecycle: create and destroy (work under lock: scenarios/frame/bench_session.h).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "engines/engine.h"
#include "providers/billed_stack.h"
#include "providers/provider.h"
#include "state/state.h"

namespace dfbench::scenarios {

// What setup and destroy do with a setup whose state.json cannot be read (state::Load: corrupt):
// refuse, in one line naming the file and how to force it in the caller's words (the command
// line's flag), or go on (`force`).
struct IfCorrupt {
  bool force = false;
  std::string how_to_force;  // "--force" (setup), "'dfbench destroy --id x --force'" (destroy)
};

// A setup to create: its name and provider, and what it asks of the provider (engines,
// binaries, versions, hosts, ...; `on_installing` is CreateSetup's).
struct SetupOptions : providers::SetupRequest {
  std::string id;  // empty: a timestamp id
  state::ProviderKind provider = state::ProviderKind::kLocal;
  IfCorrupt if_corrupt;  // forced: a corrupt setup of this id is replaced
};

// Creates ~/.dfbench/runs/<id>/, provisions it through the provider ("provisioning", then
// "installing" while engines are found or installed) and leaves it "ready" ("Done." on stderr).
// kUsage when the id is taken by a setup that is neither destroyed nor failed (a failed one is
// provisioned again, keeping its directory: e.g. the SSH key the hosts were just given), and
// when it is corrupt unless `if_corrupt` forces it; on failure the setup is left "failed" with
// the reason on stderr. An empty id, and created_at, come from `clock`'s wall time.
core::Result<state::SetupState> CreateSetup(const SetupOptions& options,
                                            const core::Clock& clock = core::RealClock());

// CreateSetup's checks without its changes (--dry-run): the same refusals (an id taken, a
// corrupt setup, the provider's own: a bad endpoint URL, an endpoint that cannot be met), then
// the provider's dry run (Provider::DryRun: the file it saved, if any).
core::Result<std::optional<std::filesystem::path>> DryRunSetup(const SetupOptions& options);

// The stack setup `id` holds after CreateSetup failed (its status "failed"): what keeps billing
// until destroy. nullopt when the setup is unknown, not failed, or holds no stack.
std::optional<providers::BilledStack> StackLeftByFailedSetup(const std::string& id);

// How destroy goes where it cannot finish on its own (the command line's --force).
struct DestroyOptions {
  IfCorrupt if_corrupt;
  // Keys runs left on a server the setup shares that cannot be removed (the server gone):
  // false, destroy fails and the setup keeps their prefixes; true, each prefix is named in a
  // warning line and forgotten, and the setup is destroyed.
  bool forget_run_keys = false;
};

// Destroys a setup: releases what its provider holds and marks it "destroyed" (results stay).
// Idempotent: an already destroyed setup is a note, not an error. kNotFound for an unknown id.
// A corrupt setup records hosts or a stack that cannot be read, so nothing can be torn down:
// kUsage (one line naming the file and how to force it), or when forced its directory is
// deleted, results included.
core::Status DestroySetup(const std::string& id, const DestroyOptions& options = {});

}  // namespace dfbench::scenarios
