#include "providers/billed_stack.h"

#include "aws/prices.h"
#include "core/time_format.h"

namespace dfbench::providers {

std::optional<BilledStack> BilledStackOf(const state::SetupState& s) {
  if (s.provider != state::ProviderKind::kAws || s.status == state::SetupStatus::kDestroyed) {
    return std::nullopt;
  }
  const nlohmann::json recorded = s.provider_data.value("aws", nlohmann::json::object());
  if (recorded.value("stack_id", std::string()).empty()) return std::nullopt;
  BilledStack stack{.setup_id = s.id,
                    .stack_name = recorded.value("stack_name", "dfbench-" + s.id),
                    .region = s.region,
                    .instance_types = {}};
  for (const auto& i : recorded.value("instances", nlohmann::json::array())) {
    stack.instance_types.push_back(i.value("type", ""));
  }
  if (stack.instance_types.empty()) {
    for (const char* role : {"server", "client"}) {
      const std::string type = s.settings.value(role + std::string("_instance"), std::string());
      if (!type.empty()) stack.instance_types.push_back(type);
    }
    const std::string replica = s.settings.value("replica_instance", std::string());
    const int replicas = s.settings.value("replicas", 0);
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
