#include <cstdio>

#include "cli/commands.h"
#include "cli/confirm.h"
#include "cli/plan.h"
#include "scenarios/setup/lifecycle.h"

namespace dfbench::cli {
namespace {

int RunDestroy(const std::string& id, bool yes, bool force) {
  // A setup whose hosts are not this machine is shown and confirmed first; an unknown id, a
  // destroyed or a local setup goes straight on (DestroySetup reports the first two), and so
  // does a corrupt one, which DestroySetup deletes only with --force.
  const auto s = state::Load(id);
  if (s && s->status != state::SetupStatus::kDestroyed && state::ChangesHosts(s->provider)) {
    OrExit(Confirm(DestroyPlan(*s), yes));
  }
  OrExit(scenarios::DestroySetup(
      id, {.force = force, .how_to_force = "'" + state::DestroyCommand(id) + " --force'"}));
  if (!s && s.error().kind != core::ErrorKind::kNotFound) {
    std::printf("Setup %s deleted (it was corrupt).\n", id.c_str());
    return 0;
  }
  std::printf("Setup %s destroyed (results kept under its benchmarks/).\n", id.c_str());
  return 0;
}

}  // namespace

void AddDestroy(CLI::App* sub, Action* action) {
  auto id = std::make_shared<std::string>();
  sub->add_option("--id", *id, "Setup to destroy")->required();
  auto yes = std::make_shared<bool>(false);
  AddYesFlag(sub, yes.get());
  auto force = std::make_shared<bool>(false);
  AddBoolFlag(sub, "--force", force.get(),
              "Delete the directory of a setup whose state.json cannot be read (list shows it "
              "\"corrupt\"), results included: the hosts or stack it records are not torn down");
  sub->callback([id, yes, force, action] {
    *action = [id, yes, force] { return RunDestroy(*id, *yes, *force); };
  });
}

}  // namespace dfbench::cli
