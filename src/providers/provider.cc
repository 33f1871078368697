#include "providers/provider.h"

#include "providers/aws_provider.h"
#include "providers/endpoint_provider.h"
#include "providers/local_provider.h"
#include "providers/ssh_provider.h"

namespace dfbench::providers {

int RecordedEnginePort(const state::SetupState& state) {
  return state.provider_data.engine_port.value_or(0);
}

state::EngineInstall InstalledRecord(const engines::EngineSpec& spec,
                                     const engines::InstalledEngine& installed) {
  return {.name = spec.name,
          .binary = installed.binary,
          .version = installed.version,
          .status = state::InstallStatus::kInstalled,
          .origin = installed.origin,
          .sha256 = installed.sha256};
}

void RecordEngine(state::SetupState* state, const state::EngineInstall& install) {
  for (auto& e : state->engines) {
    if (e.name == install.name) {
      e = install;
      return;
    }
  }
  state->engines.push_back(install);
}

aws::FleetPlan FleetPlanOf(const AwsRequest& r, const std::string& setup_id,
                           const std::string& public_key) {
  // In FleetPlan's field order.
  return {setup_id,   r.region,         r.server,   r.client, r.replica,
          r.replicas, r.ubuntu_version, public_key, r.clients};
}

FleetLabels RecordedFleetLabels(const state::SetupState& s) {
  if (s.provider != state::ProviderKind::kAws) return {};
  const state::AwsRecord recorded = s.provider_data.aws.value_or(state::AwsRecord{});
  FleetLabels labels{.region = s.region, .aws_account = recorded.account};
  for (const auto& i : recorded.instances) {
    if (i.role == core::Role::Server()) labels.server_instance = i.type;
    if (i.role == core::Role::Client()) labels.client_instance = i.type;
    if (i.role == core::Role::Replica(0)) labels.replica_instance = i.type;
  }
  return labels;
}

std::string RecordedStackName(const state::SetupState& s) {
  const auto& aws = s.provider_data.aws;
  return aws && !aws->stack_name.empty() ? aws->stack_name : "dfbench-" + s.id;
}

std::vector<core::Role> Provider::LoginRoles(const state::SetupState& state) const {
  return SshRoles(state);
}

core::Result<hosts::SshEndpoint> Provider::LoginEndpoint(const state::SetupState& state,
                                                         std::string_view role) const {
  return providers::LoginEndpoint(state, role);
}

core::Result<std::optional<std::filesystem::path>> Provider::DryRun(
    const std::string& /*setup_id*/, const SetupRequest& /*request*/) const {
  return std::nullopt;
}

std::unique_ptr<Provider> MakeProvider(state::ProviderKind kind) {
  switch (kind) {
    case state::ProviderKind::kSsh:
      return std::make_unique<SshProvider>();
    case state::ProviderKind::kAws:
      return std::make_unique<AwsProvider>();
    case state::ProviderKind::kEndpoint:
      return std::make_unique<EndpointProvider>();
    case state::ProviderKind::kLocal:
      break;
  }
  return std::make_unique<LocalProvider>();
}

}  // namespace dfbench::providers
