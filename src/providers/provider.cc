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
