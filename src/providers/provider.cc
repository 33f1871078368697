#include "providers/provider.h"

#include "providers/aws_provider.h"
#include "providers/local_provider.h"
#include "providers/ssh_provider.h"

namespace dfbench::providers {

bool IsReplicaRole(const std::string& role) {
  return role.rfind("replica-", 0) == 0;
}

int RecordedEnginePort(const state::SetupState& state) {
  const auto it = state.provider_data.find("engine_port");
  if (it == state.provider_data.end() || !it->is_number_integer()) return 0;
  return it->get<int>();
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
  return {setup_id,  r.region,   r.server,         r.client,
          r.replica, r.replicas, r.ubuntu_version, public_key};
}

FleetLabels RecordedFleetLabels(const state::SetupState& s) {
  if (s.provider != state::ProviderKind::kAws) return {};
  const nlohmann::json recorded = s.provider_data.value("aws", nlohmann::json::object());
  FleetLabels labels{.region = s.region, .aws_account = recorded.value("account", "")};
  for (const auto& i : recorded.value("instances", nlohmann::json::array())) {
    const std::string role = i.value("role", "");
    if (role == "server") labels.server_instance = i.value("type", "");
    if (role == "client") labels.client_instance = i.value("type", "");
    if (role == "replica-0") labels.replica_instance = i.value("type", "");
  }
  return labels;
}

std::vector<std::string> Provider::LoginRoles(const state::SetupState& state) const {
  return SshRoles(state);
}

core::Result<hosts::SshEndpoint> Provider::LoginEndpoint(const state::SetupState& state,
                                                         const std::string& role) const {
  return providers::LoginEndpoint(state, role);
}

core::Result<std::optional<std::filesystem::path>> Provider::SaveDryRun(
    const std::string& /*setup_id*/, const SetupRequest& /*request*/) const {
  return std::nullopt;
}

std::unique_ptr<Provider> MakeProvider(state::ProviderKind kind) {
  switch (kind) {
    case state::ProviderKind::kSsh:
      return std::make_unique<SshProvider>();
    case state::ProviderKind::kAws:
      return std::make_unique<AwsProvider>();
    case state::ProviderKind::kLocal:
      break;
  }
  return std::make_unique<LocalProvider>();
}

}  // namespace dfbench::providers
