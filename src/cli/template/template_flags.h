// The flags of `template` and the rule that turns them into the fleet plan it renders.
#pragma once

#include <string>

#include "aws/template.h"
#include "cli/aws_flags.h"
#include "cli/command.h"

namespace dfbench::cli {

struct TemplateFlags {
  std::string run_id;
  std::string out;
  std::string public_key;
  AwsFleetFlags fleet;
};

// --run-id, --out, --public-key and the AWS fleet flags.
void AddTemplateFlags(CLI::App* sub, TemplateFlags* flags);

// Checks that --out can be written, reads --public-key (a placeholder key when not given) and
// builds the plan the fleet flags describe (ToFleetPlan); throws ExitError with one line.
aws::FleetPlan ToTemplatePlan(const TemplateFlags& flags);

}  // namespace dfbench::cli
