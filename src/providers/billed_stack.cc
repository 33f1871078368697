#include "providers/billed_stack.h"

#include <algorithm>

#include "aws/prices.h"
#include "core/time_format.h"
#include "providers/provider.h"

namespace dfbench::providers {

std::optional<BilledStack> BilledStackOf(const state::SetupState& s) {
  if (s.provider != state::ProviderKind::kAws || s.status == state::SetupStatus::kDestroyed) {
    return std::nullopt;
  }
  // A CreateStack whose reply never came counts: the stack may be running.
  if (!s.provider_data.aws ||
      (s.provider_data.aws->stack_id.empty() && s.provider_data.aws->create_token.empty())) {
    return std::nullopt;
  }
  const state::AwsRecord& recorded = *s.provider_data.aws;
  BilledStack stack{.setup_id = s.id,
                    .stack_name = RecordedStackName(s),
                    .region = s.region,
                    .instance_types = {}};
  for (const auto& i : recorded.instances) stack.instance_types.push_back(i.type);
  if (stack.instance_types.empty()) {
    if (!s.settings.server_instance.empty()) {
      stack.instance_types.push_back(s.settings.server_instance);
    }
    const int clients = std::max(s.settings.client_count, 1);
    for (int c = 0; c < clients && !s.settings.client_instance.empty(); ++c) {
      stack.instance_types.push_back(s.settings.client_instance);
    }
    const std::string& replica = s.settings.replica_instance;
    const int replicas = s.settings.replicas.Count();
    for (int r = 0; r < replicas && !replica.empty(); ++r) stack.instance_types.push_back(replica);
  }
  return stack;
}

std::chrono::seconds UpTime(const state::SetupState& s, std::chrono::system_clock::time_point now) {
  const core::SystemTime created = core::ParseIso8601(s.created_at);
  if (created == core::SystemTime{} || now < created) return std::chrono::seconds(0);
  return std::chrono::duration_cast<std::chrono::seconds>(now - created);
}

std::string StillRunningLine(const BilledStack& b) {
  std::string types;
  for (const auto& t : b.instance_types) types += (types.empty() ? "" : ", ") + t;
  return "setup " + b.setup_id + " failed and its stack is still running: " + b.stack_name +
         (types.empty() ? "" : " (" + types + ")") + " in " + b.region + ", " +
         aws::CostLine(b.instance_types, b.region) +
         "; delete it with: " + state::DestroyCommand(b.setup_id);
}

}  // namespace dfbench::providers
