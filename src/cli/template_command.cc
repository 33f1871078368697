// `dfbench template`: the CloudFormation YAML a setup with these flags would apply, rendered
// without calling AWS and without any state, for review or `aws cloudformation
// validate-template`; saved as ~/.dfbench/runs/<run-id>/stack.yaml too, where the reference
// keeps it.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "aws/template.h"
#include "cli/aws_flags.h"
#include "cli/commands.h"
#include "core/files.h"
#include "core/log.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

// An all-zero Ed25519 public key: well-formed, and no private key can ever match it.
constexpr char kPlaceholderKey[] =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA "
    "dfbench-placeholder-key";

std::string ReadPublicKey(const std::string& path) {
  auto text = core::ReadFile(path);
  if (!text) ExitWith(core::ErrorKind::kUsage, "--public-key " + path + ": cannot read it");
  std::string line = text->substr(0, text->find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (line.rfind("ssh-", 0) != 0 && line.rfind("ecdsa-", 0) != 0) {
    ExitWith(core::ErrorKind::kUsage,
             "--public-key " + path + ": not an OpenSSH public key (expected ssh-rsa AAAA...)");
  }
  return line;
}

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

}  // namespace

void AddTemplate(CLI::App* sub, Action* action) {
  struct Options {
    std::string run_id;
    std::string out;
    std::string public_key;
    AwsFleetFlags fleet;
  };
  auto o = std::make_shared<Options>();
  sub->add_option("--run-id", o->run_id,
                  "Names the stack's resources (dfbench-<id>); the YAML is saved as "
                  "~/.dfbench/runs/<id>/stack.yaml (no state)")
      ->required();
  sub->add_option("--out", o->out, "Write the YAML to this file (default: stdout)");
  sub->add_option("--public-key", o->public_key,
                  "OpenSSH public key to embed (default: a harmless placeholder)");
  AddAwsFleetFlags(sub, &o->fleet);
  sub->callback([o, action] {
    *action = [o] {
      if (!o->out.empty()) OrExit(core::ResolveOutputPath(o->out));
      const std::string key =
          o->public_key.empty() ? kPlaceholderKey : ReadPublicKey(o->public_key);
      const aws::FleetPlan plan = ToFleetPlan(o->fleet, o->run_id, key);
      const std::string yaml = aws::RenderTemplate(plan);
      SaveStackYaml(o->run_id, yaml);
      if (o->out.empty()) {
        std::fwrite(yaml.data(), 1, yaml.size(), stdout);
      } else {
        OrExit(core::WriteOutputFile(o->out, yaml));
        core::Note("wrote " + o->out);
      }
      core::Note("estimated cost: " + CostLine(plan));
      return 0;
    };
  });
}

}  // namespace dfbench::cli
