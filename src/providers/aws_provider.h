// The aws provider: a fleet of EC2 instances in one CloudFormation stack ("dfbench-<id>",
// aws/template.h), then set up like ssh hosts (ssh_provider.h: facts, dfbench on the client,
// engines on the server and replicas) at their public IPs, engine traffic on private IPs.
//
// Setup generates the setup's RSA-4096 key pair, saves the rendered template as
// <setup>/stack.yaml before any AWS call, runs the checks before launching (aws_preflight.h:
// engines for the hosts' arch, the key, the credentials, the AMI), creates the stack with
// OnFailure=DELETE and follows its events on stderr. A stack that fails is deleted by
// CloudFormation: the error names the failing resource and AWS's reason, its id is forgotten
// (nothing bills), and the same setup can be run again (the key is kept). A failure after the
// stack is complete (SSH, installs, Ctrl+C) leaves it recorded and running: the caller decides
// (billed_stack.h). Destroy deletes the stack and waits for it to go;
// a stack already gone is a note; the local key is removed only once the stack is gone.
// Unlike other providers, Provision saves the state once the stack exists (its id recorded), so
// that a setup killed while waiting for the stack can still be destroyed.
//
// What it records besides provider_data.ssh (the ssh provider's shape, so `dfbench ssh` and
// `info` work): state.region, and provider_data.aws (state::AwsRecord: the stack's name and id,
// the account, the Ubuntu release and each instance's role, id, type, arch and addresses).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "providers/provider.h"
#include "providers/ssh_provider.h"

namespace dfbench::providers {

// What setup does before its first AWS call, alone (--dry-run): generates the setup's key pair
// (or reuses it) and saves the template setup would apply as <setup>/stack.yaml; its path.
// kUsage for a plan AWS would refuse.
core::Result<std::filesystem::path> SaveFleetTemplate(const std::string& setup_id,
                                                      const AwsRequest& request);

// Connect, StopLeftovers and InstallEngine are the ssh provider's: the instances are SSH hosts.
class AwsProvider : public SshProvider {
 public:
  state::ProviderKind Kind() const override { return state::ProviderKind::kAws; }
  // Credentials and endpoints as the AWS CLI finds them (aws/credentials.h, aws/client.h).
  core::Status Provision(state::SetupState* state, const SetupRequest& request) override;
  // kEnvironment (auth, quota, throttling after retries, a stack that will not delete): the
  // stack and the key stay, so destroy can be run again.
  core::Status Destroy(state::SetupState* state) override;
  // SaveFleetTemplate.
  core::Result<std::optional<std::filesystem::path>> DryRun(
      const std::string& setup_id, const SetupRequest& request) const override;
};

}  // namespace dfbench::providers
