#include <cstdio>
#include <string>
#include <vector>

#include "aws/prices.h"
#include "cli/commands.h"
#include "core/format.h"
#include "core/standard_output.h"
#include "core/table.h"
#include "core/time_format.h"
#include "providers/billed_stack.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

// A role's machine as the reference lists it: instance type and arch on aws (recorded among
// the setup flags as <role>_instance / <role>_arch), else host name and vCPUs ("local" for
// this machine).
std::string MachineOf(const state::SetupState& s, const std::string& role) {
  if (state::LaunchesHosts(s.provider)) {
    const std::string type = state::InstanceType(s.settings, role);
    const std::string arch = state::InstanceArch(s.settings, role);
    if (!type.empty()) return arch.empty() ? type : type + " " + arch;
  }
  const results::HostFacts* h = s.FindHost(role);
  if (!h) h = s.FindHost("local");
  if (!h) return "-";
  const std::string name = state::IsRemote(s.provider) ? h->name : "local";
  return h->vcpus > 0 ? name + " " + std::to_string(h->vcpus) + " vCPU" : name;
}

std::string AgeOf(const state::SetupState& s) {
  auto created = core::ParseIso8601(s.created_at);
  if (created == core::SystemTime{}) return "?";
  return core::FormatAge(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - created));
}

// What the setup's AWS stack has cost so far ("~$1.36"), "?" without a known price, "-" when
// the setup holds no stack (other providers, destroyed, or failed before the stack existed).
// Shown in a column of its own only when some listed setup holds a stack.
std::string CostSoFarOf(const state::SetupState& s) {
  const auto stack = providers::BilledStackOf(s);
  if (!stack) return "-";
  const aws::FleetCost cost = aws::EstimateFleetCost(stack->instance_types, stack->region);
  if (cost.known_per_hour == 0) return "?";
  return core::Format(
      "~${:.2f}",
      aws::CostSoFar(cost.known_per_hour, providers::UpTime(s, std::chrono::system_clock::now())));
}

int RunList(bool all) {
  using Align = core::Table::Align;
  std::vector<std::vector<std::string>> rows;
  bool any_stack = false;
  std::vector<std::string> corrupt;
  for (const auto& s : state::ListSetups(&corrupt)) {  // newest first
    if (!all && s.status == state::SetupStatus::kDestroyed) continue;
    rows.push_back({s.id, state::ToString(s.status),
                    s.region.empty() ? state::ToString(s.provider) : s.region,
                    MachineOf(s, "server"), MachineOf(s, "client"), AgeOf(s), CostSoFarOf(s)});
    any_stack = any_stack || rows.back().back() != "-";
  }
  // Shown whatever --all says: nothing is known of them but that they need a look.
  for (const auto& id : corrupt) {
    rows.push_back({id, state::kCorruptStatus, "-", "-", "-", "?", "-"});
  }
  // The reference's columns, plus what held stacks cost when some setup holds one.
  std::vector<std::string> headers = {"ID", "STATUS", "REGION", "SERVER", "CLIENT", "AGE"};
  if (any_stack) headers.emplace_back("COST SO FAR");
  core::Table table(headers, std::vector<Align>(headers.size(), Align::kLeft));
  for (auto& row : rows) {
    row.resize(headers.size());
    table.AddRow(row);
  }
  if (table.empty()) {
    std::fprintf(stderr, "dfbench: no setups%s under %s\n", all ? "" : " (try --all)",
                 state::RunsDir().c_str());
    return 0;
  }
  std::string out = table.Render();
  core::WriteStdout(out);
  return 0;
}

}  // namespace

void AddList(CLI::App* sub, Action* action) {
  auto all = std::make_shared<bool>(false);
  AddBoolFlag(sub, "--all", all.get(), "Include destroyed setups");
  sub->callback([all, action] { *action = [all] { return RunList(*all); }; });
}

}  // namespace dfbench::cli
