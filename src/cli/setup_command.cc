#include <cstdio>

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
  std::string provider = "local";
  EngineFlags engines;
  bool no_pin = false;
  bool yes = false;
  bool dry_run = false;
  int port = 0;
  int replicas = 0;
  SshFlags ssh;
};

int RunSetup(const SetupFlags& f, const CLI::App* sub) {
  scenarios::SetupOptions o{.id = f.id,
                            .provider = f.provider,
                            .engines = ParseEngines(f.engines.engines),
                            .binaries = f.engines.binaries,
                            .skip_missing_engines = false,
                            .pin_cpus = !f.no_pin,
                            .local_replicas = f.replicas,
                            .engine_port = f.port};
  if (f.replicas > 0 && f.provider != "local") {
    ExitWith(core::ErrorKind::kUsage,
             "--replicas is for the local provider; name each replica "
             "host with --replica HOST");
  }
  ApplySshFlags(sub, f.ssh, &o);
  if (o.id.empty()) o.id = core::FormatTimestampId(std::chrono::system_clock::now());
  OrExit(state::ValidateId(o.id));
  const std::string plan = SetupPlan(o, /*quickstart=*/false, /*keep=*/true);
  if (f.dry_run) {
    std::fputs(plan.c_str(), stderr);
    core::Note("dry run: nothing was created or changed");
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
  if (s.provider == "ssh") std::printf("  dfbench ssh     --id %s --target server\n", s.id.c_str());
  return 0;
}

}  // namespace

void AddSetup(CLI::App* sub, Action* action) {
  auto f = std::make_shared<SetupFlags>();
  sub->add_option("--id", f->id, "Setup name (default: a timestamp)");
  sub->add_option("--provider", f->provider, "Where the hosts come from")
      ->capture_default_str()
      ->check(CLI::IsMember({"local", "ssh"}));
  AddEngineFlags(sub, &f->engines);
  AddSshFlags(sub, &f->ssh, /*with_version=*/true);
  AddPortFlag(sub, &f->port);
  sub->add_option("--replicas", f->replicas,
                  "Local provider: replica engines on this machine, for run-replication")
      ->capture_default_str()
      ->check(CLI::Range(0, 16));
  AddBoolFlag(sub, "--no-pin", &f->no_pin,
              "Local provider: do not split the CPUs between engine and load generator");
  AddYesFlag(sub, &f->yes);
  AddBoolFlag(sub, "--dry-run", &f->dry_run,
              "Print the plan and stop: nothing is created, here or on the hosts");
  SetExamples(
      sub,
      "  dfbench setup --id local-dev\n"
      "  dfbench setup --id mc --engines redis,memcached\n"
      "  dfbench setup --id rep --engines redis --replicas 1\n"
      "  dfbench setup --id custom --engines redis --redis_binary ~/src/redis/src/redis-server\n"
      "  dfbench setup --id lab --provider ssh --server 10.0.0.2 --client 10.0.0.3 \\\n"
      "      --ssh-user ubuntu --ssh-key ~/.ssh/id_rsa --engines redis,valkey --yes\n"
      "\nOn the ssh provider setup prints its plan and asks before changing the hosts; --yes\n"
      "or DFBENCH_NO_CONFIRM=1 skips the question, which is required without a terminal.\n");
  sub->callback([f, action, sub] { *action = [f, sub] { return RunSetup(*f, sub); }; });
}

}  // namespace dfbench::cli
