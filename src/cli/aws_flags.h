// The fleet flags of AWS setups (template; setup and quickstart on the aws provider): instance
// types and architectures, replicas, Ubuntu release, region, with the reference's defaults. One
// group, so every command that takes them shows and checks them alike (which provider takes
// them: cli/provider_flags.h).
#pragma once

#include <string>
#include <vector>

#include "aws/template.h"
#include "cli/command.h"
#include "scenarios/setup/lifecycle.h"

namespace dfbench::cli {

struct AwsFleetFlags {
  std::string region;  // "" = the AWS CLI's chain (aws/region.h)
  std::string server_instance = "c6i.2xlarge";
  std::string client_instance = "c5.2xlarge";
  std::string server_arch = "x86_64";
  std::string client_arch = "x86_64";
  int replicas = 0;
  int client_count = 1;          // client instances, all of --client-instance
  std::string replica_instance;  // "" = the server's
  std::string replica_arch;      // "" = the server's
  std::string ubuntu_version = "22.04";
};

void AddAwsFleetFlags(CLI::App* sub, AwsFleetFlags* flags);

// On the aws provider: checks the fleet flags for `options->id` (as ToFleetPlan) and fills
// options->aws. On the local provider --replicas is the count of replica engines on this
// machine (ResolveProvider refused the other fleet flags there, and every one on ssh).
void ApplyAwsFleetFlags(const AwsFleetFlags& flags, scenarios::SetupOptions* options);

// The plan these flags describe for `setup_id`, checked as aws::ValidatePlan checks it (plus
// architecture and region names); throws ExitError(kUsage) with one line. Architecture
// mismatches are printed as warnings on stderr.
aws::FleetPlan ToFleetPlan(const AwsFleetFlags& flags, const std::string& setup_id,
                           const std::string& public_key);

// aws::CostLine of the plan's instances: "~$0.680/hr on demand in us-east-1".
std::string CostLine(const aws::FleetPlan& plan);

}  // namespace dfbench::cli
