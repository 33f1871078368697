#include "providers/aws_provider.h"

#include <set>
#include <thread>

#include "aws/client.h"
#include "aws/cloudformation.h"
#include "aws/credentials.h"
#include "core/files.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "providers/aws_preflight.h"
#include "providers/ssh_key.h"
#include "providers/ssh_provider.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;

constexpr auto kPollInterval = std::chrono::seconds(5);
constexpr std::chrono::seconds kDeleteTimeout{1800};

bool InProgress(const std::string& status) {
  return status.size() > 12 && status.ends_with("_IN_PROGRESS");
}

core::Result<aws::Client> MakeClient(const std::string& region) {
  auto creds = aws::LoadCredentials(aws::ProcessEnv());
  if (!creds) return tl::unexpected(creds.error());
  return aws::Client(*creds, region);
}

// Sleeps one poll interval; false when interrupted.
bool PollPause() {
  const auto until = std::chrono::steady_clock::now() + kPollInterval;
  while (std::chrono::steady_clock::now() < until) {
    if (core::InterruptRequested()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return !core::InterruptRequested();
}

// The events not in `seen` yet, oldest first; adds them to `seen`.
std::vector<aws::StackEvent> NewEvents(const std::vector<aws::StackEvent>& newest_first,
                                       std::set<std::string>* seen) {
  std::vector<aws::StackEvent> fresh;
  for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) {
    if (seen->insert(it->timestamp + "|" + it->logical_id + "|" + it->status).second) {
      fresh.push_back(*it);
    }
  }
  return fresh;
}

// The first resource that failed, and AWS's reason ("" when the events name none).
std::string FailingResource(const std::vector<aws::StackEvent>& newest_first) {
  for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) {
    if (it->status.ends_with("_FAILED") && it->resource_type != "AWS::CloudFormation::Stack" &&
        it->reason.find("cancelled") == std::string::npos) {
      return it->logical_id + " (" + it->resource_type + "): " + it->reason;
    }
  }
  return "";
}

// Polls the stack until its status leaves *_IN_PROGRESS or `timeout` passes; the last status
// seen ("" when AWS no longer knows the stack). Events are followed on stderr.
core::Result<std::string> WaitForStack(const aws::Client& client, const std::string& stack_id,
                                       std::chrono::seconds timeout,
                                       std::set<std::string>* printed) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto events = aws::DescribeStackEvents(client, stack_id); events) {
      for (const auto& e : NewEvents(*events, printed)) {
        core::Notef("[stack] {} {} {}{}", e.logical_id, e.resource_type, e.status,
                    e.reason.empty() ? "" : ": " + e.reason);
      }
    }
    auto stack = aws::DescribeStack(client, stack_id);
    if (!stack && stack.error().kind == core::ErrorKind::kNotFound) return std::string();
    if (!stack) return tl::unexpected(stack.error());
    if (!InProgress(stack->status) || std::chrono::steady_clock::now() >= deadline) {
      return stack->status;
    }
    if (!PollPause()) {
      return core::Fail(core::ErrorKind::kInterrupted,
                        "interrupted while the stack " + stack->name + " was " + stack->status);
    }
  }
}

// Deletes the stack and waits until it is gone. kEnvironment when it will not go.
core::Status DeleteAndWait(const aws::Client& client, const std::string& stack) {
  // Only the deletion's events are news: those of the stack's creation were shown before.
  std::set<std::string> printed;
  if (auto events = aws::DescribeStackEvents(client, stack); events) {
    (void)NewEvents(*events, &printed);
  }
  if (auto st = aws::DeleteStack(client, stack); !st) return st;
  auto status = WaitForStack(client, stack, kDeleteTimeout, &printed);
  if (!status) return tl::unexpected(status.error());
  if (status->empty() || *status == "DELETE_COMPLETE") return core::Ok();
  std::string reason;
  if (auto described = aws::DescribeStack(client, stack); described) {
    reason = described->status_reason;
  }
  return core::Fail(core::ErrorKind::kEnvironment,
                    "the stack " + stack + " did not delete (" + *status +
                        (reason.empty() ? "" : ": " + reason) +
                        "); run destroy again, or delete it in the CloudFormation console");
}

using FleetInstance = state::AwsInstanceRecord;

const aws::InstanceSpec& SpecOf(const aws::FleetPlan& plan, const std::string& role) {
  if (role == "server") return plan.server;
  if (role == "client") return plan.client;
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
      return core::Fail(core::ErrorKind::kEnvironment,
                        "the stack " + stack.name + " gives no instance id or address for " + role);
    }
    found.push_back(i);
  }
  return found;
}

// Creates the stack (or takes over a complete one this setup created before, so that a setup
// that failed after the stack came up can be run again) and waits for it.
core::Result<aws::Stack> CreateFleetStack(const aws::Client& client, state::SetupState* s,
                                          const std::string& name, const std::string& body,
                                          std::chrono::seconds timeout) {
  if (!s->provider_data.aws) s->provider_data.aws = state::AwsRecord{};
  state::AwsRecord& recorded = *s->provider_data.aws;
  if (auto existing = aws::DescribeStack(client, name); existing) {
    auto tag = existing->tags.find("dfbench:setup");
    if (existing->status == "CREATE_COMPLETE" && tag != existing->tags.end() &&
        tag->second == s->id) {
      core::Notef("setup {}: the stack {} exists already; using it", s->id, name);
      recorded.stack_id = existing->id;
      return *existing;
    }
    return core::Fail(core::ErrorKind::kUsage,
                      "the stack " + name + " exists already (" + existing->status + "); run '" +
                          state::DestroyCommand(s->id) + "' or pick another --id");
  } else if (existing.error().kind != core::ErrorKind::kNotFound) {
    return tl::unexpected(existing.error());
  }

  core::Notef("setup {}: creating the stack {} in {}", s->id, name, client.region());
  auto id = aws::CreateStack(client, {.stack_name = name,
                                      .template_body = body,
                                      .tags = {{"dfbench:setup", s->id}},
                                      .on_failure = "DELETE"});
  if (!id) return tl::unexpected(id.error());
  // Recorded before waiting, so that destroy finds the stack whatever happens next.
  recorded.stack_id = *id;
  (void)state::Save(s);

  std::set<std::string> printed;
  auto status = WaitForStack(client, *id, timeout, &printed);
  if (!status) return tl::unexpected(status.error());
  if (*status == "CREATE_COMPLETE") {
    auto stack = aws::DescribeStack(client, *id);
    if (!stack) return tl::unexpected(stack.error());
    return *stack;
  }

  std::string cause;
  if (auto events = aws::DescribeStackEvents(client, *id); events) cause = FailingResource(*events);
  if (cause.empty()) {
    cause = InProgress(*status) ? "not complete after " + std::to_string(timeout.count()) + " s"
                                : "it ended " + *status;
  }
  std::string left = "it was deleted";
  bool gone = true;
  // OnFailure=DELETE leaves nothing; a timeout or a failed rollback leaves a stack to delete.
  if (!status->empty() && *status != "DELETE_COMPLETE") {
    core::Notef("setup {}: deleting the stack {} ({})", s->id, name, *status);
    if (auto st = DeleteAndWait(client, *id); !st) {
      left = "deleting it failed too: " + st.error().message;
      gone = false;
    }
  }
  // A stack known to be gone bills nothing: list and info stop showing it as held.
  if (gone) {
    recorded.stack_id.clear();
    (void)state::Save(s);
  }
  return core::Fail(core::ErrorKind::kEnvironment,
                    "the stack " + name + " failed: " + cause + "; " + left +
                        ", the SSH key is kept: run the same setup again");
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

core::Result<std::optional<fs::path>> AwsProvider::SaveDryRun(const std::string& setup_id,
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
  const std::string& body = prepared->body;

  s->provider_data.aws =
      state::AwsRecord{.stack_name = *stack_name, .ubuntu_version = fleet.ubuntu_version};
  auto client = MakeClient(fleet.region);
  if (!client) return tl::unexpected(client.error());
  std::string account;
  if (auto st =
          RunPreflight(s->id, FleetPreflight(request, plan, prepared->key, *client, &account));
      !st) {
    return st;
  }
  s->provider_data.aws->account = account;

  auto stack = CreateFleetStack(*client, s, *stack_name, body, fleet.stack_timeout);
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
    core::Notef("{}: {} {} ({}), public {}, private {}", i.role, i.id, i.type, i.arch, i.public_ip,
                i.private_ip);
  }
  (void)state::Save(s);
  return ProvisionSshHosts(s, request, login, fleet.ssh_wait, nullptr);
}

core::Status AwsProvider::Destroy(state::SetupState* s) {
  const std::string stack_id = s->provider_data.aws ? s->provider_data.aws->stack_id : "";
  const std::string stack_name = RecordedStackName(*s);
  // No stack id: setup stopped before CreateStack, so there is nothing in AWS.
  if (!stack_id.empty()) {
    auto client = MakeClient(s->region.empty() ? "us-east-1" : s->region);
    if (!client) return tl::unexpected(client.error());
    auto stack = aws::DescribeStack(*client, stack_id);
    if (!stack && stack.error().kind != core::ErrorKind::kNotFound) {
      return tl::unexpected(stack.error());
    }
    if (!stack || stack->status == "DELETE_COMPLETE") {
      core::Notef("the stack {} is already gone", stack_name);
    } else {
      core::Notef("deleting the stack {} ({})", stack_name, stack->status);
      if (auto st = DeleteAndWait(*client, stack_id); !st) return st;
      core::Notef("the stack {} is deleted", stack_name);
    }
  }
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
