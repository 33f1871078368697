#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "aws/prices.h"
#include "aws/region.h"
#include "cli/bool_flag.h"
#include "cli/commands.h"
#include "core/clock.h"
#include "core/format.h"
#include "core/log.h"
#include "core/standard_output.h"
#include "core/table.h"
#include "core/time_format.h"
#include "providers/aws_orphans.h"
#include "providers/billed_stack.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

// A role's machine as the reference lists it: instance type and arch on aws (recorded among
// the setup flags as <role>_instance / <role>_arch), else host name and vCPUs ("local" for
// this machine).
std::string MachineOf(const state::SetupState& s, core::Role role) {
  if (state::LaunchesHosts(s.provider)) {
    const std::string type = state::InstanceType(s.settings, role);
    const std::string arch = state::InstanceArch(s.settings, role);
    if (!type.empty()) return arch.empty() ? type : type + " " + arch;
  }
  const results::HostFacts* h = s.FindHost(role);
  if (!h) h = s.FindHost(core::Role::Local());
  if (!h) return "-";
  const std::string name = state::IsRemote(s.provider) ? h->name : "local";
  return h->vcpus > 0 ? name + " " + std::to_string(h->vcpus) + " vCPU" : name;
}

std::string AgeOf(const state::SetupState& s, core::SystemTime now) {
  auto created = core::ParseIso8601(s.created_at);
  if (created == core::SystemTime{}) return "?";
  return core::FormatAge(std::chrono::duration_cast<std::chrono::seconds>(now - created));
}

// What the setup's AWS stack has cost so far ("~$1.36"), "?" without a known price, "-" when
// the setup holds no stack (other providers, destroyed, or failed before the stack existed).
// Shown in a column of its own only when some listed setup holds a stack.
std::string CostSoFarOf(const state::SetupState& s, core::SystemTime now) {
  const auto stack = providers::BilledStackOf(s);
  if (!stack) return "-";
  const aws::FleetCost cost = aws::EstimateFleetCost(stack->instance_types, stack->region);
  if (cost.known_per_hour == 0) return "?";
  return core::Format("~${:.2f}", aws::CostSoFar(cost.known_per_hour, providers::UpTime(s, now)));
}

int RunList(bool all) {
  using Align = core::Table::Align;
  // One instant for the whole listing, so the rows' ages and costs agree.
  const core::SystemTime now = core::RealClock().WallNow();
  std::vector<std::vector<std::string>> rows;
  bool any_stack = false;
  size_t abandoned = 0;
  std::vector<std::string> corrupt;
  for (const auto& s : state::ListSetups(&corrupt)) {  // newest first
    if (!all && s.status == state::SetupStatus::kDestroyed) continue;
    // A working status left by a command that died (kill -9): the next command repairs it.
    const bool died = state::WorkingStatusAbandoned(s);
    abandoned += died;
    rows.push_back({s.id, state::ToString(s.status) + (died ? " (died)" : ""),
                    s.region.empty() ? state::ToString(s.provider) : s.region,
                    MachineOf(s, core::Role::Server()), MachineOf(s, core::Role::Client()),
                    AgeOf(s, now), CostSoFarOf(s, now)});
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
  if (abandoned > 0) {
    core::Note(
        "(died): the command that set this status is gone; the next command on the setup "
        "repairs it ('dfbench info --id ID' says which)");
  }
  return 0;
}

std::string Joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

struct AwsListFlags {
  bool aws = false;
  std::string regions;  // comma-separated; "" = the region the AWS CLI's chain gives
  bool all_regions = false;
  std::string output = "table";
};

std::string HourlyCostOf(const providers::TaggedStack& t) {
  const aws::FleetCost cost = aws::EstimateFleetCost(t.instance_types, t.region);
  return cost.known_per_hour > 0 ? core::Format("~${:.3f}", cost.known_per_hour) : "?";
}

// Every stack dfbench tagged in the chosen regions, and which local setup knows it.
int RunListAws(const AwsListFlags& f) {
  if (f.output != "table" && f.output != "json") {
    ExitWith(core::ErrorKind::kUsage, "--output " + f.output + ": use table or json with --aws");
  }
  std::vector<std::string> regions;
  if (!f.all_regions) {
    std::istringstream in(f.regions);
    for (std::string r; std::getline(in, r, ',');) {
      if (!r.empty()) regions.push_back(r);
    }
    if (regions.empty()) regions.push_back(aws::ResolveRegion("", aws::ProcessEnv()).name);
  }
  core::Notef("listing the stacks tagged dfbench:setup in {}",
              f.all_regions ? std::string("every region of the account") : Joined(regions, ", "));
  const auto stacks = OrExit(providers::ListTaggedStacks(regions));
  if (f.output == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& t : stacks) {
      const aws::FleetCost cost = aws::EstimateFleetCost(t.instance_types, t.region);
      out.push_back({{"stack", t.name},
                     {"stack_id", t.id},
                     {"region", t.region},
                     {"setup", t.setup_id},
                     {"status", t.status},
                     {"owner", t.owner},
                     {"age_seconds", t.age.count()},
                     {"instance_types", t.instance_types},
                     {"hourly_usd", cost.known_per_hour},
                     {"known_by", t.known_by}});
    }
    const std::string text = out.dump(2) + "\n";
    core::WriteStdout(text);
    return 0;
  }
  if (stacks.empty()) {
    core::Note("no stack tagged dfbench:setup there");
    return 0;
  }
  using Align = core::Table::Align;
  core::Table table({"STACK", "REGION", "STATUS", "AGE", "INSTANCES", "$/HR", "LOCAL SETUP"},
                    std::vector<Align>(7, Align::kLeft));
  size_t orphans = 0;
  for (const auto& t : stacks) {
    orphans += t.known_by.empty();
    table.AddRow({t.name, t.region, t.status, core::FormatAge(t.age),
                  t.instance_types.empty() ? "-" : Joined(t.instance_types, ","), HourlyCostOf(t),
                  t.known_by.empty() ? "none (orphan)" : t.known_by});
  }
  const std::string out = table.Render();
  core::WriteStdout(out);
  if (orphans > 0) {
    core::Notef(
        "{} stack(s) no setup here knows; remove one with: dfbench destroy --stack NAME "
        "--region REGION",
        orphans);
  }
  return 0;
}

}  // namespace

void AddList(CLI::App* sub, Action* action) {
  auto all = std::make_shared<bool>(false);
  AddBoolFlag(sub, "--all", all.get(), "Include destroyed setups");
  auto aws = std::make_shared<AwsListFlags>();
  {
    const FlagGroup group(sub, "AWS stacks");
    AddBoolFlag(sub, "--aws", &aws->aws,
                "List the CloudFormation stacks tagged dfbench:setup in AWS, known to a setup "
                "here or not (orphans), with their age and hourly cost");
    sub->add_option("--region", aws->regions,
                    "With --aws: the regions to look in, comma-separated (default: the AWS CLI's "
                    "region)");
    AddBoolFlag(sub, "--all-regions", &aws->all_regions,
                "With --aws: every region enabled for the account");
    sub->add_option("--output", aws->output, "With --aws: table or json")->capture_default_str();
  }
  sub->callback([all, aws, action] {
    if (!aws->aws && (!aws->regions.empty() || aws->all_regions || aws->output != "table")) {
      ExitWith(core::ErrorKind::kUsage, "--region, --all-regions and --output need --aws");
    }
    if (!aws->regions.empty() && aws->all_regions) {
      ExitWith(core::ErrorKind::kUsage, "--region and --all-regions: give one of them");
    }
    *action = [all, aws] { return aws->aws ? RunListAws(*aws) : RunList(*all); };
  });
}

}  // namespace dfbench::cli
