#include <cstdio>

#include "aws/region.h"
#include "cli/commands.h"
#include "cli/confirm.h"
#include "cli/plan.h"
#include "core/format.h"
#include "providers/aws_orphans.h"
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
      id, {.if_corrupt = {.force = force,
                          .how_to_force = "'" + state::DestroyCommand(id) + " --force'"},
           .forget_run_keys = force}));
  if (!s && s.error().kind != core::ErrorKind::kNotFound) {
    std::printf("Setup %s deleted (it was corrupt).\n", id.c_str());
    return 0;
  }
  std::printf("Setup %s destroyed (results kept under its benchmarks/).\n", id.c_str());
  return 0;
}

// A stack dfbench tagged that no setup here records (list --aws calls it an orphan).
int RunDestroyStack(const std::string& name, const std::string& region_flag, bool yes) {
  const aws::Region region = aws::ResolveRegion(region_flag, aws::ProcessEnv());
  const auto stack = OrExit(providers::FindOrphan(name, region.name));
  std::string types;
  for (const auto& t : stack.instance_types) types += (types.empty() ? "" : ", ") + t;
  OrExit(Confirm(
      core::Format("dfbench: destroy will delete the CloudFormation stack {} in {} "
                   "(region from {}):\n  tagged as setup {}{}, no setup here records "
                   "it\n  instances: {}\n",
                   stack.name, stack.region, region.source, stack.setup_id,
                   stack.owner.empty() ? "" : " by " + stack.owner, types.empty() ? "-" : types),
      yes));
  OrExit(providers::DestroyOrphan(stack));
  std::printf("Stack %s deleted in %s.\n", stack.name.c_str(), stack.region.c_str());
  return 0;
}

}  // namespace

void AddDestroy(CLI::App* sub, Action* action) {
  auto id = std::make_shared<std::string>();
  sub->add_option("--id", *id, "Setup to destroy");
  auto stack = std::make_shared<std::string>();
  sub->add_option(
      "--stack", *stack,
      "Instead of a setup: a stack dfbench tagged that no setup here records (see 'list --aws')");
  auto region = std::make_shared<std::string>();
  sub->add_option("--region", *region, "With --stack: its region (default: the AWS CLI's region)");
  auto yes = std::make_shared<bool>(false);
  AddYesFlag(sub, yes.get());
  auto force = std::make_shared<bool>(false);
  AddBoolFlag(sub, "--force", force.get(),
              "Delete the directory of a setup whose state.json cannot be read (list shows it "
              "\"corrupt\"), results included: the hosts or stack it records are not torn down; "
              "destroy an endpoint setup whose run keys cannot be removed (its server gone), "
              "naming what may be left where");
  sub->callback([id, stack, region, yes, force, action] {
    if (id->empty() && stack->empty()) {
      ExitWith(core::ErrorKind::kUsage,
               "--id is required (or --stack NAME for a stack no setup "
               "records)");
    }
    if (!region->empty() && stack->empty())
      ExitWith(core::ErrorKind::kUsage, "--region needs --stack");
    if (!stack->empty()) {
      *action = [stack, region, yes] { return RunDestroyStack(*stack, *region, *yes); };
      return;
    }
    *action = [id, yes, force] { return RunDestroy(*id, *yes, *force); };
  });
}

}  // namespace dfbench::cli
