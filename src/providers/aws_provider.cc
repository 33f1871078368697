#include "providers/aws_provider.h"

#include <optional>

#include "aws/caller_address.h"
#include "aws/region.h"
#include "core/files.h"
#include "core/log.h"
#include "hosts/digest.h"
#include "providers/aws_preflight.h"
#include "providers/aws_stack.h"
#include "providers/ssh_key.h"
#include "providers/ssh_provider.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;

using FleetInstance = state::AwsInstanceRecord;

const aws::InstanceSpec& SpecOf(const aws::FleetPlan& plan, core::Role role) {
  if (role == core::Role::Server()) return plan.server;
  if (role.IsClient()) return plan.client;  // every client instance, client-2 and on too
  return plan.replica;
}

// The instances of a complete stack, from its Outputs. kEnvironment when one is missing.
core::Result<std::vector<FleetInstance>> ReadInstances(const aws::FleetPlan& plan,
                                                       const aws::Stack& stack) {
  std::vector<FleetInstance> found;
  for (const auto& role : aws::FleetRoles(plan)) {
    const aws::RoleOutputs keys = aws::OutputKeys(role);
    auto out = [&](const std::string& key) {
      auto it = stack.outputs.find(key);
      return it == stack.outputs.end() ? std::string() : it->second;
    };
    FleetInstance i{.role = role,
                    .id = out(keys.instance_id),
                    .type = SpecOf(plan, role).type,
                    .arch = aws::ArchName(SpecOf(plan, role).arch),
                    .public_ip = out(keys.public_ip),
                    .private_ip = out(keys.private_ip)};
    if (i.id.empty() || i.public_ip.empty() || i.private_ip.empty()) {
      return core::Fail(
          core::ErrorKind::kEnvironment,
          "the stack " + stack.name + " gives no instance id or address for " + role.Name());
    }
    found.push_back(i);
  }
  return found;
}

struct PreparedFleet {
  KeyPair key;
  aws::FleetPlan plan;
  std::string body;  // the template
  fs::path path;     // where it is saved
};

// The setup's key pair (generated, or the one a previous attempt made) and the template of its
// fleet, saved as <setup>/stack.yaml: all before any AWS call, so that what is applied stays on
// disk whatever happens next.
core::Result<PreparedFleet> PrepareFleet(const std::string& setup_id, const AwsRequest& fleet) {
  const fs::path dir = state::SetupDir(setup_id);
  auto pair = EnsureKeyPair(dir / "ssh", "dfbench-" + setup_id);
  if (!pair) return tl::unexpected(pair.error());
  core::Notef("setup {}: {} the SSH key pair {}", setup_id,
              pair->generated ? "generated" : "reusing", pair->private_key.string());
  PreparedFleet out{.key = *pair,
                    .plan = FleetPlanOf(fleet, setup_id, pair->public_line),
                    .path = dir / "stack.yaml"};
  // Architecture warnings were shown with the plan, before the user said yes.
  std::vector<std::string> warnings;
  if (auto st = aws::ValidatePlan(out.plan, &warnings); !st) return tl::unexpected(st.error());
  out.body = aws::RenderTemplate(out.plan);
  if (auto st = core::WriteFileAtomic(out.path, out.body); !st) return tl::unexpected(st.error());
  return out;
}

}  // namespace

core::Result<fs::path> SaveFleetTemplate(const std::string& setup_id, const AwsRequest& fleet) {
  auto prepared = PrepareFleet(setup_id, fleet);
  if (!prepared) return tl::unexpected(prepared.error());
  return prepared->path;
}

core::Result<std::optional<fs::path>> AwsProvider::DryRun(const std::string& setup_id,
                                                          const SetupRequest& request) const {
  auto saved = SaveFleetTemplate(setup_id, request.aws);
  if (!saved) return tl::unexpected(saved.error());
  return std::optional<fs::path>(*saved);
}

core::Status AwsProvider::Provision(state::SetupState* s, const SetupRequest& request) {
  const AwsRequest& fleet = request.aws;
  s->provider = Kind();
  s->region = fleet.region;
  auto stack_name = aws::StackName(s->id);
  if (!stack_name) return tl::unexpected(stack_name.error());

  auto prepared = PrepareFleet(s->id, fleet);
  if (!prepared) return tl::unexpected(prepared.error());
  const aws::FleetPlan& plan = prepared->plan;

  s->provider_data.aws =
      state::AwsRecord{.stack_name = *stack_name, .ubuntu_version = fleet.ubuntu_version};
  core::Notef("setup {}: region {} (from {})", s->id, fleet.region, fleet.region_source);
  auto client = AwsClient(fleet.region);
  if (!client) return tl::unexpected(client.error());
  aws::CallerIdentity caller;
  std::string zone;
  if (auto st = RunPreflight(s->id,
                             FleetPreflight(request, plan, prepared->key, *client, &caller, &zone));
      !st) {
    return st;
  }
  state::AwsRecord& recorded = *s->provider_data.aws;
  recorded.account = caller.account;
  recorded.owner = caller.arn;
  recorded.ssh_cidr = fleet.ssh_cidr;
  if (recorded.ssh_cidr.empty()) {
    auto address = aws::PublicAddress(aws::ProcessEnv());
    if (!address) return tl::unexpected(address.error());
    recorded.ssh_cidr = *address + "/32";
  }
  core::Notef("setup {}: the fleet goes to {}; SSH to it is open to {} only", s->id, zone,
              recorded.ssh_cidr);
  auto key_digest = hosts::Sha256File(prepared->key.public_key);
  if (!key_digest) return tl::unexpected(key_digest.error());

  auto stack =
      CreateSetupStack(*client, s,
                       {.name = *stack_name,
                        .template_body = prepared->body,
                        .parameters = {{"SshCidr", recorded.ssh_cidr}, {"AvailabilityZone", zone}},
                        .owner_arn = caller.arn,
                        .key_tag = key_digest->substr(0, 16),
                        .timeout = fleet.stack_timeout});
  if (!stack) return tl::unexpected(stack.error());
  auto instances = ReadInstances(plan, *stack);
  if (!instances) return tl::unexpected(instances.error());

  SshLogin login{.user = request.ssh.user.empty() ? "ubuntu" : request.ssh.user,
                 .port = 22,
                 .key_path = prepared->key.private_key.string(),
                 .key_generated = true};
  for (const auto& i : *instances) {
    s->provider_data.aws->instances.push_back(i);
    login.hosts.push_back(
        {.role = i.role, .address = i.public_ip, .private_address = i.private_ip});
    core::Notef("{}: {} {} ({}), public {}, private {}", i.role.Name(), i.id, i.type, i.arch,
                i.public_ip, i.private_ip);
  }
  (void)state::Save(s);
  return ProvisionSshHosts(s, request, login, fleet.ssh_wait, nullptr);
}

core::Status AwsProvider::Destroy(state::SetupState* s) {
  const state::AwsRecord recorded = s->provider_data.aws.value_or(state::AwsRecord{});
  const std::string stack_name = RecordedStackName(*s);
  // Neither an id nor a CreateStack sent (its token is recorded before the call): setup stopped
  // before it, so there is nothing in AWS.
  if (!recorded.stack_id.empty() || !recorded.create_token.empty()) {
    auto client = AwsClient(s->region.empty() ? aws::kDefaultRegion : s->region);
    if (!client) return tl::unexpected(client.error());
    std::optional<aws::Stack> stack;
    if (recorded.stack_id.empty()) {
      // CreateStack was sent and its answer never came: AWS knows, by the stack's name and tag.
      auto found = FindSetupStack(*client, stack_name, s->id);
      if (!found) return tl::unexpected(found.error());
      stack = *found;
    } else if (auto described = aws::DescribeStack(*client, recorded.stack_id); described) {
      stack = *described;
    } else if (described.error().kind != core::ErrorKind::kNotFound) {
      return tl::unexpected(described.error());
    }
    if ((!stack || stack->status == "DELETE_COMPLETE") && !recorded.stack_id.empty()) {
      core::Notef("the stack {} is already gone", stack_name);
    } else if (!stack || stack->status == "DELETE_COMPLETE") {
      core::Notef("AWS has no stack {} in {}: its CreateStack created nothing", stack_name,
                  s->region);
    } else {
      core::Notef("deleting the stack {} ({})", stack_name, stack->status);
      if (auto st = DeleteAndWait(*client, stack->id); !st) return st;
      core::Notef("the stack {} is deleted", stack_name);
    }
  }
  // The key goes only now: while a stack may still run, it is the only way into its hosts.
  std::error_code ec;
  const fs::path ssh_dir = state::SetupDir(s->id) / "ssh";
  fs::remove_all(ssh_dir, ec);
  if (ec) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot remove " + ssh_dir.string() + ": " + ec.message());
  }
  return core::Ok();
}

}  // namespace dfbench::providers
