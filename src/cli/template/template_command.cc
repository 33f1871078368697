// `dfbench template`: the CloudFormation YAML a setup with these flags would apply, rendered
// without calling AWS and without any state, for review or `aws cloudformation
// validate-template`; saved as ~/.dfbench/runs/<run-id>/stack.yaml too, where the reference
// keeps it.
#include <filesystem>

#include "aws/template.h"
#include "cli/aws_flags.h"
#include "cli/commands.h"
#include "cli/template/template_flags.h"
#include "core/files.h"
#include "core/log.h"
#include "core/standard_output.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

// Saves `yaml` as <run-id>/stack.yaml, unless a live setup of that id keeps the template its
// stack was made from (then one note says so).
void SaveStackYaml(const std::string& run_id, const std::string& yaml) {
  OrExit(state::ValidateId(run_id));
  const std::filesystem::path path = state::SetupDir(run_id) / "stack.yaml";
  if (auto s = state::Load(run_id); s && s->status != state::SetupStatus::kDestroyed &&
                                    s->status != state::SetupStatus::kFailed) {
    core::Note("setup \"" + run_id + "\" exists: its " + path.string() + " is left as it is");
    return;
  }
  OrExit(core::MakeDirs(path.parent_path()));
  OrExit(core::WriteFileAtomic(path, yaml));
  core::Note("saved as " + path.string());
}

int RunTemplate(const TemplateFlags& f) {
  const aws::FleetPlan plan = ToTemplatePlan(f);
  const std::string yaml = aws::RenderTemplate(plan);
  SaveStackYaml(f.run_id, yaml);
  if (f.out.empty()) {
    core::WriteStdout(yaml);
  } else {
    OrExit(core::WriteOutputFile(f.out, yaml));
    core::Note("wrote " + f.out);
  }
  core::Note("estimated cost: " + CostLine(plan));
  return 0;
}

}  // namespace

void AddTemplate(CLI::App* sub, Action* action) {
  AddFlagsCommand(sub, action, &AddTemplateFlags, &RunTemplate);
}

}  // namespace dfbench::cli
