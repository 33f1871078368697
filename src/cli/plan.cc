#include "cli/plan.h"

#include "aws/template.h"
#include "cli/aws_flags.h"
#include "core/format.h"
#include "core/log.h"
#include "protocol/server_url.h"
#include "providers/provider.h"

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

// What setup does about one external load generator on the client.
std::string ClientToolLine(const std::string& program, const std::string& version,
                           const std::string& work, providers::ToolNeed need) {
  return "  client: find " + program + " on the PATH or in ~/.local/bin, or build " + program +
         " " + version + " from source under " + work + "build/ into ~/.local (its build " +
         "dependencies through apt-get as root or sudo -n)" +
         (need == providers::ToolNeed::kIfBuildable
              ? "; where the client cannot (no network, say), it is recorded as not installed "
                "and setup goes on"
              : "") +
         "\n";
}

// The client tool lines of `o`, for both remote providers.
std::string ClientToolLines(const scenarios::SetupOptions& o, const std::string& work) {
  const providers::ClientTools& tools = o.client_tools;
  std::string p;
  if (tools.memtier != providers::ToolNeed::kNone) {
    p += ClientToolLine("memtier_benchmark", providers::kMemtierRelease, work, tools.memtier);
  }
  if (tools.dfly_bench != providers::ToolNeed::kNone) {
    p += ClientToolLine("dfly_bench", "at Dragonfly ref " + tools.dfly_bench_ref, work,
                        tools.dfly_bench);
  }
  return p;
}

std::string SshSetupPlan(const scenarios::SetupOptions& o, bool quickstart, bool keep) {
  const std::string work = "~/.dfbench-work/" + o.id + "/";
  std::string p = core::Format("dfbench: {} {} will change these hosts over SSH:\n",
                               quickstart ? "quickstart" : "setup", o.id);
  for (const auto& h : o.ssh.hosts) {
    p += core::Format(
        "  {:<10} {}{}\n", h.role.Name(), h.address,
        h.private_address.empty() ? "" : " (engine traffic on " + h.private_address + ")");
  }
  p += core::Format("  log in as {} on port {} with {}\n", o.ssh.user, o.ssh.port,
                    o.ssh.key_path.empty() ? "a new 4096-bit RSA key pair, generated under " +
                                                 (state::SetupDir(o.id) / "ssh").string() +
                                                 " (its public key must be added on each host)"
                                           : "the key " + o.ssh.key_path);
  p += "  client: upload this dfbench binary to " + work + "bin/\n";
  p += ClientToolLines(o, work);
  p += "  server: find " + EngineList(o) +
       " on the PATH, or install what is missing (apt-get as root or through sudo -n, or a "
       "release into ~/.dfbench/cache/engines/)\n";
  for (const auto* e : o.engines) {
    const auto v = o.versions.find(e->name);
    if (v == o.versions.end() && !e->versioned_builds) continue;
    p += "  " + e->name + " version: " +
         (v == o.versions.end() ? std::string("the one on the host, else latest")
                                : v->second.value) +
         (e->on_replicas && o.ssh.hosts.size() > 2 ? " (installed on the replicas too)" : "") +
         "\n";
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

// Where the region came from, when neither --region nor the default chose it: an environment
// variable or a profile can pick a region the user did not think of.
std::string RegionSourceNote(const std::string& source) {
  return source == "--region" || source == "default" ? "" : "; region from " + source;
}

std::string AwsSetupPlan(const scenarios::SetupOptions& o, bool quickstart, bool keep) {
  const aws::FleetPlan fleet = providers::FleetPlanOf(o.aws, o.id, "");
  const std::string dir = state::SetupDir(o.id).string();
  std::string p = core::Format(
      "dfbench: {} {} will create the CloudFormation stack dfbench-{} in {} (AWS{}):\n",
      quickstart ? "quickstart" : "setup", o.id, o.id, o.aws.region,
      RegionSourceNote(o.aws.region_source));
  for (const auto& role : aws::FleetRoles(fleet)) {
    const aws::InstanceSpec& spec = aws::InstanceOf(fleet, role);
    p += core::Format("  {:<10} {} {}, Ubuntu {}\n", role.Name(), spec.type,
                      aws::ArchName(spec.arch), o.aws.ubuntu_version);
  }
  p += "  cost: " + CostLine(fleet) + ", billed until '" + state::DestroyCommand(o.id) + "'\n";
  p += "  network: a VPC with one public subnet, SSH (22) open only to " +
       (o.aws.ssh_cidr.empty() ? "this machine's public address (/32, learned at setup)"
                               : o.aws.ssh_cidr + " (--ssh-cidr)") +
       ", engine ports only between these instances, one cluster placement group; instances "
       "require IMDSv2 and encrypt their volumes\n";
  p += "  SSH key: a new 4096-bit RSA pair under " + dir + "/ssh (its public half becomes the " +
       "stack's key pair); log in as " + (o.ssh.user.empty() ? "ubuntu" : o.ssh.user) + "\n";
  p += "  template: saved as " + dir + "/stack.yaml before any AWS call\n";
  p += "  client: upload this dfbench binary; server" +
       std::string(o.aws.replicas > 0 ? " and replicas" : "") + ": install " + EngineList(o) + "\n";
  p += ClientToolLines(o, "~/.dfbench-work/" + o.id + "/");
  p += o.tune_network
           ? "  network tuning: steer the server NIC's IRQs and RPS/XPS onto its top CPUs\n"
           : "  network tuning: none\n";
  if (quickstart) {
    p += keep ? "  then: benchmark; the stack is kept and billed (--skip-destroy)\n"
              : "  then: benchmark and delete the stack (results are kept)\n";
  }
  return p;
}

std::string EndpointSetupPlan(const scenarios::SetupOptions& o, bool quickstart, bool keep) {
  std::string p = core::Format("dfbench: {} {} against servers you run (endpoint provider):\n",
                               quickstart ? "quickstart" : "setup", o.id);
  for (const auto& named : o.endpoint.endpoints) {
    auto url = protocol::ParseServerUrl(named.url);
    p += "  meet " +
         (named.engine.empty() ? std::string("the engine at ") : named.engine + " at ") +
         (url ? protocol::Redacted(*url) : std::string("(a malformed URL)")) + "\n";
  }
  p += "  nothing is started, stopped or installed there; the load generator runs here\n";
  p += o.endpoint.allow_flush
           ? "  runs may empty them (--allow-flush: FLUSHALL)\n"
           : "  runs write under a key prefix of their own and remove those keys at the end\n";
  if (quickstart) {
    p += keep ? "  then: benchmark; the setup is kept (--skip-destroy)\n"
              : "  then: benchmark and destroy the setup (results are kept)\n";
  }
  return p;
}

std::string LocalSetupPlan(const scenarios::SetupOptions& o, bool quickstart, bool keep) {
  std::string p = core::Format("dfbench: {} {} on this machine (local provider):\n",
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

std::string SetupPlan(const scenarios::SetupOptions& o, bool quickstart, bool keep) {
  switch (o.provider) {
    case state::ProviderKind::kSsh:
      return SshSetupPlan(o, quickstart, keep);
    case state::ProviderKind::kAws:
      return AwsSetupPlan(o, quickstart, keep);
    case state::ProviderKind::kEndpoint:
      return EndpointSetupPlan(o, quickstart, keep);
    case state::ProviderKind::kLocal:
      break;
  }
  return LocalSetupPlan(o, quickstart, keep);
}

void DryRun(const scenarios::SetupOptions& o, const std::string& plan) {
  std::fputs(plan.c_str(), stderr);
  const auto saved = OrExit(scenarios::DryRunSetup(o));
  if (o.provider == state::ProviderKind::kAws) {
    core::Note("dry run: the template is saved as " + saved.value_or("").string() +
               "; no AWS call was made, nothing was created");
    return;
  }
  core::Note("dry run: nothing was created or changed");
}

std::string DestroyPlan(const state::SetupState& s) {
  if (s.provider == state::ProviderKind::kAws) {
    const state::AwsRecord aws = s.provider_data.aws.value_or(state::AwsRecord{});
    std::string p;
    if (!aws.stack_id.empty()) {
      p = core::Format(
          "dfbench: destroy {} will delete the CloudFormation stack {} in {} (AWS account {}):\n",
          s.id, providers::RecordedStackName(s), s.region, aws.account.empty() ? "?" : aws.account);
    } else if (!aws.create_token.empty()) {
      p = core::Format(
          "dfbench: destroy {} will ask AWS for the stack {} in {} (its CreateStack got no clear "
          "answer) and delete it if it is there:\n",
          s.id, providers::RecordedStackName(s), s.region);
    } else {
      p = core::Format("dfbench: destroy {}: no stack was created in AWS\n", s.id);
    }
    for (const auto& i : aws.instances) {
      p += core::Format("  {:<10} {} {} at {}\n", i.role.Name(), i.id, i.type, i.public_ip);
    }
    p += "  then delete the SSH key pair under " + (state::SetupDir(s.id) / "ssh").string() +
         " (kept if the stack does not delete)\n";
    p += "  results under " + state::SetupDir(s.id).string() + " stay\n";
    return p;
  }
  const std::string work = "~/.dfbench-work/" + s.id + "/";
  std::string p = core::Format("dfbench: destroy {} will change these hosts ({} provider):\n", s.id,
                               state::ToString(s.provider));
  std::string user;
  const auto provider = providers::MakeProvider(s.provider);
  for (const auto& role : provider->LoginRoles(s)) {
    auto e = provider->LoginEndpoint(s, role.Name());
    if (!e) continue;
    user = e->user;
    p += core::Format("  {:<10} {}\n", role.Name(), e->host);
  }
  p += "  as " + (user.empty() ? std::string("the recorded user") : user) +
       ": stop what dfbench started there and remove " + work +
       " (engine logs, engines it installed, the uploaded dfbench)\n";
  if (const auto& ssh = s.provider_data.ssh; ssh && ssh->key_generated) {
    p += "  delete the generated key pair " + ssh->key_path + "\n";
  }
  p += "  results under " + state::SetupDir(s.id).string() + " stay\n";
  return p;
}

}  // namespace dfbench::cli
