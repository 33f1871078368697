#include <cstdio>

#include "cli/commands.h"
#include "cli/confirm.h"
#include "cli/plan.h"
#include "scenarios/lifecycle.h"

namespace dfbench::cli {
namespace {

int RunDestroy(const std::string& id, bool yes) {
  // A setup whose hosts are not this machine is shown and confirmed first; an unknown id, a
  // destroyed or a local setup goes straight on (DestroySetup reports the first two).
  if (auto s = state::Load(id);
      s && s->status != state::SetupStatus::kDestroyed && state::ChangesHosts(s->provider)) {
    OrExit(Confirm(DestroyPlan(*s), yes));
  }
  OrExit(scenarios::DestroySetup(id));
  std::printf("Setup %s destroyed (results kept under its benchmarks/).\n", id.c_str());
  return 0;
}

}  // namespace

void AddDestroy(CLI::App* sub, Action* action) {
  auto id = std::make_shared<std::string>();
  sub->add_option("--id", *id, "Setup to destroy")->required();
  auto yes = std::make_shared<bool>(false);
  AddYesFlag(sub, yes.get());
  sub->callback([id, yes, action] { *action = [id, yes] { return RunDestroy(*id, *yes); }; });
}

}  // namespace dfbench::cli
