#include <cstdio>

#include "cli/aws_flags.h"
#include "cli/commands.h"
#include "cli/confirm.h"
#include "cli/flags.h"
#include "cli/plan.h"
#include "cli/ssh_flags.h"
#include "core/log.h"
#include "core/time_format.h"
#include "scenarios/lifecycle.h"

namespace dfbench::cli {
namespace {

struct SetupFlags {
  std::string id;
  std::string provider;  // "": ResolveProvider decides
  EngineFlags engines;
  bool no_pin = false;
  bool yes = false;
  bool dry_run = false;
  int port = 0;
  SshFlags ssh;
  std::string load_generator = "builtin";
  std::string dfly_bench_ref;
  AwsFleetFlags fleet;
};

// External load generators setup finds or builds on a remote client.
providers::ClientTools ToClientTools(const SetupFlags& f, const std::string& provider) {
  providers::ClientTools tools{.memtier = f.load_generator == "memtier",
                               .dfly_bench_ref = f.dfly_bench_ref};
  if (tools.any() && provider == "local") {
    ExitWith(core::ErrorKind::kUsage,
             std::string(tools.memtier ? "--load-generator memtier" : "--dfly-bench-ref") +
                 " needs a remote client (--provider ssh); on this machine install the tool "
                 "yourself and pass its path to run");
  }
  if (!tools.dfly_bench_ref.empty()) OrExit(providers::ValidateGitRef(tools.dfly_bench_ref));
  return tools;
}

int RunSetup(const SetupFlags& f, const CLI::App* sub) {
  scenarios::SetupOptions o{.id = f.id,
                            .provider = ResolveProvider(sub, f.provider),
                            .engines = ParseEngines(f.engines.engines),
                            .binaries = f.engines.binaries,
                            .versions = ParseVersions(f.engines.versions),
                            .skip_missing_engines = false,
                            .pin_cpus = !f.no_pin,
                            .engine_port = f.port};
  ApplySshFlags(sub, f.ssh, &o);
  o.client_tools = ToClientTools(f, o.provider);
  if (o.id.empty()) o.id = core::FormatTimestampId(std::chrono::system_clock::now());
  OrExit(state::ValidateId(o.id));
  ApplyAwsFleetFlags(f.fleet, &o);
  const std::string plan = SetupPlan(o, /*quickstart=*/false, /*keep=*/true);
  if (f.dry_run) {
    DryRun(o, plan);
    return 0;
  }
  if (ChangesHosts(o.provider)) OrExit(Confirm(plan, f.yes));
  auto s = OrExit(scenarios::CreateSetup(o));
  std::printf("Setup %s is ready.\n", s.id.c_str());
  for (const auto& e : s.engines) {
    std::printf("  %-10s %-28s %s\n", e.name.c_str(), e.version.c_str(), e.binary.c_str());
  }
  std::printf(
      "\nNext steps:\n  dfbench run     --id %s\n  dfbench info    --id %s\n"
      "  dfbench destroy --id %s\n",
      s.id.c_str(), s.id.c_str(), s.id.c_str());
  if (s.FindHost("replica-0")) std::printf("  dfbench run-replication --id %s\n", s.id.c_str());
  if (s.provider != "local")
    std::printf("  dfbench ssh     --id %s --target server\n", s.id.c_str());
  return 0;
}

}  // namespace

void AddSetup(CLI::App* sub, Action* action) {
  auto f = std::make_shared<SetupFlags>();
  sub->add_option("--id", f->id, "Setup name (default: a timestamp)");
  AddProviderFlag(sub, &f->provider);
  AddEngineFlags(sub, &f->engines);
  AddSshFlags(sub, &f->ssh);
  AddAwsFleetFlags(sub, &f->fleet);
  AddPortFlag(sub, &f->port);
  sub->add_option("--load-generator", f->load_generator,
                  "memtier: find memtier_benchmark on the client, or build release " +
                      std::string(providers::kMemtierRelease) +
                      " there from source (ssh); builtin needs nothing but dfbench")
      ->capture_default_str()
      ->check(CLI::IsMember({"builtin", "memtier"}));
  sub->add_option("--dfly-bench-ref", f->dfly_bench_ref,
                  "Find dfly_bench on the client, or build it there at this Dragonfly git ref "
                  "(ssh; for run-commands-dfly)");
  AddBoolFlag(sub, "--no-pin", &f->no_pin,
              "Local provider: do not split the CPUs between engine and load generator");
  AddYesFlag(sub, &f->yes);
  AddBoolFlag(sub, "--dry-run", &f->dry_run,
              "Print the plan and stop: nothing is created, here or on the hosts (aws: the "
              "template is saved as stack.yaml, no AWS call)");
  SetExamples(
      sub,
      "  dfbench setup --id local-dev\n"
      "  dfbench setup --id mc --engines redis,memcached\n"
      "  dfbench setup --id rep --provider local --engines redis --replicas 1\n"
      "  dfbench setup --id custom --engines redis --redis_binary ~/src/redis/src/redis-server\n"
      "  dfbench setup --id lab --provider ssh --server 10.0.0.2 --client 10.0.0.3 \\\n"
      "      --ssh-user ubuntu --ssh-key ~/.ssh/id_rsa --engines redis,valkey --yes\n"
      "  dfbench setup --id lab2 --provider ssh --server 10.0.0.2 --client 10.0.0.3 \\\n"
      "      --ssh-user ubuntu --load-generator memtier --dfly-bench-ref v1.31.0\n"
      "  dfbench setup --id aws1 --server-instance c7g.4xlarge --server-arch arm64 \\\n"
      "      --client-instance c7g.4xlarge --client-arch arm64 --region eu-west-1 --dry-run\n"
      "\nOn the ssh and aws providers setup prints its plan (on aws with the $/hr estimate)\n"
      "and asks before changing anything; --yes or DFBENCH_NO_CONFIRM=1 skips the question,\n"
      "which is required without a terminal. Any AWS fleet flag implies --provider aws.\n");
  sub->callback([f, action, sub] { *action = [f, sub] { return RunSetup(*f, sub); }; });
}

}  // namespace dfbench::cli
