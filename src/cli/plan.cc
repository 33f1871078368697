#include "cli/plan.h"

#include <fmt/format.h>

#include "providers/ssh_provider.h"

namespace dfbench::cli {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

std::string EngineList(const scenarios::SetupOptions& o) {
  std::vector<std::string> names;
  for (const auto* e : o.engines) {
    auto it = o.binaries.find(e->name);
    names.push_back(it == o.binaries.end() ? e->name : e->name + " (" + it->second + ")");
  }
  return Join(names);
}

std::string SshSetupPlan(const scenarios::SetupOptions& o, bool quickstart, bool keep) {
  const std::string work = "~/.dfbench-work/" + o.id + "/";
  std::string p = fmt::format("dfbench: {} {} will change these hosts over SSH:\n",
                              quickstart ? "quickstart" : "setup", o.id);
  for (const auto& h : o.ssh.hosts) {
    p += fmt::format(
        "  {:<10} {}{}\n", h.role, h.address,
        h.private_address.empty() ? "" : " (engine traffic on " + h.private_address + ")");
  }
  p += fmt::format("  log in as {} on port {} with {}\n", o.ssh.user, o.ssh.port,
                   o.ssh.key_path.empty() ? "a new 4096-bit RSA key pair, generated under " +
                                                (state::SetupDir(o.id) / "ssh").string() +
                                                " (its public key must be added on each host)"
                                          : "the key " + o.ssh.key_path);
  p += "  client: upload this dfbench binary to " + work + "bin/\n";
  p += "  server: find " + EngineList(o) +
       " on the PATH, or install what is missing (apt-get as root or through sudo -n, or a "
       "release into ~/.dfbench/cache/engines/)\n";
  bool dragonfly = false;
  for (const auto* e : o.engines) dragonfly |= e->name == "dragonfly";
  if (dragonfly) {
    p += "  dragonfly build: " +
         (o.dragonfly_version.empty() ? std::string("the one on the host, else latest")
                                      : o.dragonfly_version) +
         (o.ssh.hosts.size() > 2 ? " (installed on the replicas too)" : "") + "\n";
  }
  p += o.tune_network
           ? "  network tuning: steer the server NIC's IRQs and RPS/XPS onto its top CPUs "
             "(irqbalance is stopped)\n"
           : "  network tuning: none\n";
  if (quickstart) {
    p += keep ? "  then: benchmark; the setup is kept (--skip-destroy)\n"
              : "  then: benchmark, stop everything and remove " + work + " on every host\n";
  }
  return p;
}

std::string LocalSetupPlan(const scenarios::SetupOptions& o, bool quickstart, bool keep) {
  std::string p = fmt::format("dfbench: {} {} on this machine (local provider):\n",
                              quickstart ? "quickstart" : "setup", o.id);
  p += "  locate " + EngineList(o) + " and record the versions in " +
       (state::SetupDir(o.id) / "state.json").string() + "\n";
  p += o.pin_cpus ? "  CPUs: split between the engine and the load generator\n"
                  : "  CPUs: not pinned (--no-pin)\n";
  if (quickstart) {
    p += keep ? "  then: benchmark; the setup is kept (--skip-destroy)\n"
              : "  then: benchmark and destroy the setup (results are kept)\n";
  }
  return p;
}

}  // namespace

bool ChangesHosts(const std::string& provider) {
  return provider != "local";
}

std::string SetupPlan(const scenarios::SetupOptions& o, bool quickstart, bool keep) {
  if (o.provider == "ssh") return SshSetupPlan(o, quickstart, keep);
  return LocalSetupPlan(o, quickstart, keep);
}

std::string DestroyPlan(const state::SetupState& s) {
  const std::string work = "~/.dfbench-work/" + s.id + "/";
  std::string p =
      fmt::format("dfbench: destroy {} will change these hosts ({} provider):\n", s.id, s.provider);
  std::string user;
  for (const auto& role : providers::SshRoles(s)) {
    auto e = providers::LoginEndpoint(s, role);
    if (!e) continue;
    user = e->user;
    p += fmt::format("  {:<10} {}\n", role, e->host);
  }
  p += "  as " + (user.empty() ? std::string("the recorded user") : user) +
       ": stop what dfbench started there and remove " + work +
       " (engine logs, engines it installed, the uploaded dfbench)\n";
  const auto ssh = s.provider_data.find("ssh");
  if (ssh != s.provider_data.end() && ssh->is_object() && ssh->value("key_generated", false)) {
    p += "  delete the generated key pair " + ssh->value("key_path", std::string()) + "\n";
  }
  p += "  results under " + state::SetupDir(s.id).string() + " stay\n";
  return p;
}

}  // namespace dfbench::cli
