#include "providers/aws_orphans.h"

#include <algorithm>
#include <optional>

#include "aws/cloudformation.h"
#include "aws/ec2.h"
#include "aws/region.h"
#include "core/time_format.h"
#include "providers/aws_stack.h"
#include "providers/provider.h"
#include "state/state.h"

namespace dfbench::providers {
namespace {

// The local setup (not destroyed) that records the stack `name` in `region`; "" when none.
std::string LocalSetupOf(const std::vector<state::SetupState>& setups, const std::string& name,
                         const std::string& id, const std::string& region) {
  for (const auto& s : setups) {
    if (s.provider != state::ProviderKind::kAws || s.status == state::SetupStatus::kDestroyed ||
        s.region != region) {
      continue;
    }
    const auto& aws = s.provider_data.aws;
    if ((aws && !aws->stack_id.empty() && aws->stack_id == id) || RecordedStackName(s) == name) {
      return s.id;
    }
  }
  return "";
}

// The instance types of the stack's instances that still exist (from its Outputs); empty when
// none can be read (a stack being created or deleted).
std::vector<std::string> InstanceTypesOf(const aws::Client& client, const aws::Stack& stack) {
  std::vector<std::string> ids;
  for (const auto& [key, value] : stack.outputs) {
    if (key.ends_with("InstanceId") && !value.empty()) ids.push_back(value);
  }
  std::vector<std::string> types;
  if (ids.empty()) return types;
  auto instances = aws::DescribeInstances(client, ids);
  if (!instances) return types;
  for (const auto& i : *instances) {
    if (i.state != "terminated" && i.state != "shutting-down") types.push_back(i.type);
  }
  return types;
}

TaggedStack Describe(const aws::Client& client, const aws::Stack& stack,
                     const std::vector<state::SetupState>& setups, const core::Clock& clock) {
  TaggedStack t{.name = stack.name,
                .id = stack.id,
                .region = client.region(),
                .setup_id = stack.tags.at(kSetupTag),
                .status = stack.status};
  if (auto owner = stack.tags.find(kOwnerTag); owner != stack.tags.end()) t.owner = owner->second;
  const core::SystemTime created = core::ParseIso8601(stack.creation_time);
  if (created != core::SystemTime{}) {
    t.age = std::max(std::chrono::seconds(0),
                     std::chrono::duration_cast<std::chrono::seconds>(clock.WallNow() - created));
  }
  t.instance_types = InstanceTypesOf(client, stack);
  t.known_by = LocalSetupOf(setups, stack.name, stack.id, client.region());
  return t;
}

}  // namespace

core::Result<std::vector<TaggedStack>> ListTaggedStacks(std::vector<std::string> regions,
                                                        const core::Clock& clock) {
  if (regions.empty()) {
    auto home = AwsClient(aws::ResolveRegion("", aws::ProcessEnv()).name);
    if (!home) return tl::unexpected(home.error());
    auto all = aws::DescribeRegions(*home);
    if (!all) return tl::unexpected(all.error());
    regions = *all;
  }
  const std::vector<state::SetupState> setups = state::ListSetups();
  std::vector<TaggedStack> found;
  for (const auto& region : regions) {
    auto client = AwsClient(region);
    if (!client) return tl::unexpected(client.error());
    auto stacks = aws::DescribeAllStacks(*client);
    if (!stacks) {
      return core::Fail(stacks.error().kind, region + ": " + stacks.error().message);
    }
    std::vector<TaggedStack> here;
    for (const auto& stack : *stacks) {
      if (stack.tags.contains(kSetupTag)) here.push_back(Describe(*client, stack, setups, clock));
    }
    std::sort(here.begin(), here.end(),
              [](const TaggedStack& a, const TaggedStack& b) { return a.name < b.name; });
    found.insert(found.end(), here.begin(), here.end());
  }
  return found;
}

core::Result<TaggedStack> FindOrphan(const std::string& name, const std::string& region,
                                     const core::Clock& clock) {
  auto client = AwsClient(region);
  if (!client) return tl::unexpected(client.error());
  auto stack = aws::DescribeStack(*client, name);
  if (!stack) return tl::unexpected(stack.error());
  if (stack->status == "DELETE_COMPLETE") {
    return core::Fail(core::ErrorKind::kNotFound,
                      "the stack " + name + " is already deleted in " + region);
  }
  if (!stack->tags.contains(kSetupTag)) {
    return core::Fail(core::ErrorKind::kUsage, "the stack " + name + " in " + region + " has no " +
                                                   kSetupTag +
                                                   " tag: dfbench did not make it, and leaves "
                                                   "it alone");
  }
  TaggedStack t = Describe(*client, *stack, state::ListSetups(), clock);
  if (!t.known_by.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "the stack " + name + " belongs to the setup " +
                                                   t.known_by + " on this machine: run '" +
                                                   state::DestroyCommand(t.known_by) + "'");
  }
  return t;
}

core::Status DestroyOrphan(const TaggedStack& stack, core::Clock& clock) {
  auto client = AwsClient(stack.region);
  if (!client) return tl::unexpected(client.error());
  return DeleteAndWait(*client, stack.id, clock);
}

}  // namespace dfbench::providers
