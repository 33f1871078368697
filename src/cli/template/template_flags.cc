#include "cli/template/template_flags.h"

#include "core/files.h"

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

}  // namespace

void AddTemplateFlags(CLI::App* sub, TemplateFlags* o) {
  sub->add_option("--run-id", o->run_id,
                  "Names the stack's resources (dfbench-<id>); the YAML is saved as "
                  "~/.dfbench/runs/<id>/stack.yaml (no state)")
      ->required();
  sub->add_option("--out", o->out, "Write the YAML to this file (default: stdout)");
  sub->add_option("--public-key", o->public_key,
                  "OpenSSH public key to embed (default: a harmless placeholder)");
  AddAwsFleetFlags(sub, &o->fleet);
}

aws::FleetPlan ToTemplatePlan(const TemplateFlags& o) {
  if (!o.out.empty()) OrExit(core::ResolveOutputPath(o.out));
  const std::string key = o.public_key.empty() ? kPlaceholderKey : ReadPublicKey(o.public_key);
  return ToFleetPlan(o.fleet, o.run_id, key);
}

}  // namespace dfbench::cli
