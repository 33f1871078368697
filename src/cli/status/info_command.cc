#include "aws/prices.h"
#include "cli/commands.h"
#include "core/clock.h"
#include "core/files.h"
#include "core/format.h"
#include "core/load_generator.h"
#include "core/standard_output.h"
#include "core/table.h"
#include "core/text.h"
#include "core/time_format.h"
#include "core/units.h"
#include "hosts/ssh_command.h"
#include "providers/billed_stack.h"
#include "providers/provider.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

std::string Age(const std::string& created_at) {
  auto t = core::ParseIso8601(created_at);
  if (t == core::SystemTime{}) return "?";
  return core::FormatAge(
      std::chrono::duration_cast<std::chrono::seconds>(core::RealClock().WallNow() - t));
}

std::string CpuList(const std::vector<int>& cpus) {
  if (cpus.empty()) return "all";
  std::string s;
  for (int c : cpus) s += (s.empty() ? "" : ",") + std::to_string(c);
  return s;
}

// Indents every line of `text` by two spaces.
std::string Indent(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size() - 1;
    out += "  " + text.substr(start, nl - start + 1);
    start = nl + 1;
  }
  return out;
}

// "?" for what a setup that failed early has not recorded.
std::string OrUnknown(const std::string& value) {
  return value.empty() ? "?" : value;
}

// The stack, account and instances of an aws setup, and what it has cost so far (rate × age).
std::string AwsSection(const state::SetupState& s) {
  const state::AwsRecord aws = s.provider_data.aws.value_or(state::AwsRecord{});
  std::string out =
      core::Format("\nAWS:\n  Region:    {}\n  Account:   {}\n  Stack:     {}{}\n", s.region,
                   OrUnknown(aws.account), providers::RecordedStackName(s),
                   aws.stack_id.empty() ? " (not created)" : " (" + aws.stack_id + ")");
  out += core::Format("  Ubuntu:    {}\n", OrUnknown(aws.ubuntu_version));
  const std::vector<state::AwsInstanceRecord>& instances = aws.instances;
  core::Table table({"ROLE", "INSTANCE", "TYPE", "ARCH", "PUBLIC IP", "PRIVATE IP"});
  for (const auto& i : instances) {
    table.AddRow({i.role.Name(), i.id, i.type, i.arch, i.public_ip, i.private_ip});
  }
  // Whatever the status: a failed setup may hold its stack too, and it bills the same.
  if (const auto stack = providers::BilledStackOf(s)) {
    out += "  Cost:      " + aws::CostLine(stack->instance_types, stack->region) + "; " +
           aws::CostSoFarLine(stack->instance_types, stack->region,
                              providers::UpTime(s, core::RealClock().WallNow())) +
           "\n";
    if (s.status == state::SetupStatus::kFailed) {
      out += "  Left:      setup failed and its stack is still running; delete it with: " +
             state::DestroyCommand(s.id) + "\n";
    }
  }
  if (instances.empty()) return out + "  Instances: none launched\n";
  out += "  Instances:\n" + Indent(Indent(table.Render()));
  return out;
}

// One load generator setup provided on the client, or why it could not.
std::string LoadGeneratorLine(const std::string& name, const state::LoadGeneratorRecord& t) {
  if (t.method == "missing") {
    return core::Format("  Load generator: {} not installed ({})\n", name, t.reason);
  }
  return core::Format(
      "  Load generator: {} at {} ({})\n", name, t.binary,
      t.method == "source" ? "built from " + t.source : std::string("found on the client"));
}

// A working status whose command is gone: it stays until the next command repairs it.
std::string DiedNote(const state::SetupState& s) {
  if (!state::WorkingStatusAbandoned(s)) return "";
  return core::Format(" (its command, {} pid {}, died; the next command on the setup repairs it)",
                      s.active->command.empty() ? "unknown" : s.active->command, s.active->pid);
}

std::string SetupSection(const state::SetupState& s) {
  std::string out =
      core::Format("Setup: {}\n  Status:    {}{}\n  Provider:  {}\n", s.id,
                   state::ToString(s.status), DiedNote(s), state::ToString(s.provider));
  out += core::Format("  Created:   {} ({} ago)\n  Directory: {}\n", s.created_at,
                      Age(s.created_at), state::SetupDir(s.id).string());
  // work/ holds engine logs and reports while a command runs; results live in the run directories.
  out += core::Format("  Disk:      {} in all, {} of it in work/\n",
                      core::FormatBytes(core::TreeBytes(state::SetupDir(s.id))),
                      core::FormatBytes(core::TreeBytes(state::SetupDir(s.id) / "work")));
  if (s.provider == state::ProviderKind::kAws) out += AwsSection(s);
  return out;
}

// What setup did to the server's NIC, and the load generators it provided on the client.
std::string ProvisionedLines(const state::SetupState& s) {
  std::string out;
  if (const auto& tuned = s.provider_data.tune_network) {
    if (tuned->applied) {
      out += core::Format(
          "  Network tuning: {} steered to CPUs {} (IRQs {}, RPS queues {}, XPS "
          "queues {})\n",
          tuned->interface, nlohmann::json(tuned->io_cpus).dump(), tuned->irqs.value_or(0),
          tuned->rps_queues.value_or(0), tuned->xps_queues.value_or(0));
    } else {
      out += core::Format("  Network tuning: requested, not applied ({})\n",
                          tuned->error.empty() ? "unknown reason" : tuned->error);
    }
  }
  // Keys of runs still on an endpoint: a run going on or killed, or a removal that failed.
  for (const auto& [engine, endpoint] :
       s.provider_data.endpoints.value_or(std::map<std::string, state::EndpointRecord>{})) {
    for (const auto& run : endpoint.run_keys) {
      out += run.error.empty()
                 ? core::Format(
                       "  Run keys: {} at {} under \"{}\" (a run going on, or one that "
                       "died: the next command removes them)\n",
                       engine, endpoint.url, run.prefix)
                 : core::Format("  Run keys: {} at {}: {} key(s) left under \"{}\" ({})\n", engine,
                                endpoint.url, run.keys_left, run.prefix, run.error);
    }
  }
  if (const auto& tools = s.provider_data.load_generators) {
    // In the order of their names, as the record's object lists them.
    for (const auto& [generator, t] :
         {std::pair{core::LoadGenerator::kDflyBench, tools->dfly_bench},
          std::pair{core::LoadGenerator::kMemtier, tools->memtier}}) {
      if (t) out += LoadGeneratorLine(std::string(core::kLoadGeneratorNames.Name(generator)), *t);
    }
  }
  return out;
}

std::string HostsSection(const state::SetupState& s) {
  std::string out = "\nHosts:\n";
  for (const auto& h : s.hosts) {
    out += core::Format("  {}: {} ({} vCPUs, {:.1f} GiB, {}, kernel {}, {})\n", h.role.Name(),
                        h.name.empty() ? h.address : h.name, h.vcpus,
                        static_cast<double>(h.memory_bytes) / (1 << 30), h.arch, h.kernel, h.os);
    out += core::Format("      CPU: {}; pinned to CPUs: {}\n", h.cpu_model, CpuList(h.cpus));
    if (state::IsRemote(s.provider)) {
      out += core::Format("      reached at {}; engine traffic on {}; NIC: {}\n", h.address,
                          h.private_address,
                          h.nic.empty() ? "unknown"
                                        : core::Format("{} ({} RX queue{})", h.nic, h.rx_queues,
                                                       h.rx_queues == 1 ? "" : "s"));
    }
  }
  return out + ProvisionedLines(s);
}

// The ssh line of each role and an scp line for the server ("" without SSH hosts).
std::string SshSection(const state::SetupState& s, const providers::Provider& provider,
                       const std::vector<core::Role>& roles) {
  if (roles.empty() || s.status == state::SetupStatus::kDestroyed) return "";
  std::string out = "\nSSH:\n";
  for (const auto& role : roles) {
    auto endpoint = provider.LoginEndpoint(s, role.Name());
    if (!endpoint) continue;
    if (role == roles.front()) out += core::Format("  Key:    {}\n", endpoint->key_path);
    out += core::Format("  {:<7} {}\n", role.Name() + ":",
                        hosts::ShellJoinForDisplay(hosts::SshLoginArgv(*endpoint)));
  }
  if (auto server = provider.LoginEndpoint(s, core::Role::Server().Name()); server) {
    // Quoted like the ssh lines: a key path may hold spaces or shell characters.
    std::vector<std::string> scp = {"scp"};
    if (!server->key_path.empty()) scp.insert(scp.end(), {"-i", server->key_path});
    scp.insert(scp.end(),
               {"-P", std::to_string(server->port), "FILE", hosts::Destination(*server) + ":"});
    out += core::Format("  copy:   {}\n", hosts::ShellJoinForDisplay(scp));
  }
  return out;
}

std::string EnginesSection(const state::SetupState& s) {
  core::Table engines({"NAME", "VERSION", "STATUS", "SOURCE", "SHA256", "BINARY"});
  for (const auto& e : s.engines) {
    // The sha256's first 12 digits tell builds apart; the whole is in --json.
    engines.AddRow({e.name, e.version, state::ToString(e.status), e.origin.empty() ? "-" : e.origin,
                    e.sha256.empty() ? "-" : e.sha256.substr(0, 12), e.binary});
  }
  return "\nEngines:\n" + Indent(engines.Render());
}

std::string BenchmarksSection(const state::SetupState& s) {
  if (s.benchmarks.empty()) return "\nBenchmarks:\n  none yet\n";
  core::Table runs({"RUN", "KIND", "STATUS", "ENGINES", "RESULTS"});
  for (const auto& b : s.benchmarks) {
    std::string engines_csv;
    for (const auto& e : b.engines) engines_csv += (engines_csv.empty() ? "" : ",") + e;
    runs.AddRow({b.run_id, b.kind, results::ToString(b.status), engines_csv,
                 (state::SetupDir(s.id) / b.path).string()});
  }
  return "\nBenchmarks:\n" + Indent(runs.Render());
}

void PrintInfo(const state::SetupState& s) {
  const auto provider = providers::MakeProvider(s.provider);
  const auto roles = provider->LoginRoles(s);
  std::string out = SetupSection(s) + HostsSection(s) + SshSection(s, *provider, roles) +
                    EnginesSection(s) + BenchmarksSection(s);
  if (s.status != state::SetupStatus::kDestroyed) {
    out += core::Format("\nNext steps:\n  dfbench run     --id {}\n  dfbench destroy --id {}\n",
                        s.id, s.id);
    if (!roles.empty()) out += core::Format("  dfbench ssh     --id {} --target server\n", s.id);
  }
  // Hosts' facts (kernel, OS, CPU model, NIC) are the hosts' own text.
  out = core::Printable(out, /*keep_newlines=*/true);
  core::WriteStdout(out);
}

}  // namespace

void AddInfo(CLI::App* sub, Action* action) {
  auto id = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  sub->add_option("--id", *id, "Setup to describe")->required();
  AddBoolFlag(sub, "--json", json.get(), "Print state.json instead");
  sub->callback([id, json, action] {
    *action = [id, json] {
      auto s = OrExit(state::Load(*id));
      if (*json) {
        const std::string text = OrExit(core::ReadFile(state::SetupDir(*id) / "state.json"));
        core::WriteStdout(text);
      } else {
        PrintInfo(s);
      }
      return 0;
    };
  });
}

}  // namespace dfbench::cli
