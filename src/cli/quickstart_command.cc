#include "cli/aws_flags.h"
#include "cli/commands.h"
#include "cli/confirm.h"
#include "cli/flags.h"
#include "cli/plan.h"
#include "cli/ssh_flags.h"
#include "core/log.h"
#include "core/time_format.h"
#include "scenarios/quickstart.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

struct QuickstartFlags {
  std::string id;
  std::string provider;  // "": ResolveProvider decides
  EngineFlags engines;
  RunFlags run;
  LoadGeneratorFlags load_generator;
  bool skip_destroy = false;
  bool no_pin = false;
  bool yes = false;
  bool dry_run = false;
  int port = 0;
  SshFlags ssh;
  AwsFleetFlags fleet;
};

int RunQuickstart(const QuickstartFlags& f, const CLI::App* sub) {
  const auto requested = ParseEngines(f.engines.engines);
  const std::string provider = ResolveProvider(sub, f.provider);
  RunFlags run = f.run;
  if (provider == "local") ApplyLocalProfile(sub, &run);
  scenarios::RunOptions options = ToRunOptions(run, requested);
  auto driver = MakeDriver(f.load_generator);
  scenarios::SetupOptions setup_options{.id = f.id,
                                        .provider = provider,
                                        .engines = requested,
                                        .binaries = f.engines.binaries,
                                        .versions = ParseVersions(f.engines.versions),
                                        .skip_missing_engines = true,
                                        .pin_cpus = !f.no_pin,
                                        .engine_port = f.port};
  ApplySshFlags(sub, f.ssh, &setup_options);
  // A remote client without memtier_benchmark gets it built there by setup.
  setup_options.client_tools.memtier = f.provider != "local" &&
                                       f.load_generator.name == "memtier" &&
                                       f.load_generator.memtier_binary.empty();
  if (setup_options.id.empty()) {
    setup_options.id = core::FormatTimestampId(std::chrono::system_clock::now());
  }
  OrExit(state::ValidateId(setup_options.id));
  ApplyAwsFleetFlags(f.fleet, &setup_options);
  const std::string plan = SetupPlan(setup_options, /*quickstart=*/true, f.skip_destroy);
  if (f.dry_run) {
    DryRun(setup_options, plan);
    return 0;
  }
  if (ChangesHosts(setup_options.provider)) OrExit(Confirm(plan, f.yes));
  options.driver = driver.get();
  return OrExit(
      scenarios::Quickstart(setup_options, options, ToOutputFormat(f.run.output), f.skip_destroy));
}

}  // namespace

void AddQuickstart(CLI::App* sub, Action* action) {
  auto f = std::make_shared<QuickstartFlags>();
  sub->add_option("--id", f->id, "Setup name (default: a timestamp)");
  AddProviderFlag(sub, &f->provider);
  AddEngineFlags(sub, &f->engines);
  AddSshFlags(sub, &f->ssh);
  AddAwsFleetFlags(sub, &f->fleet);
  AddPortFlag(sub, &f->port);
  AddRunFlags(sub, &f->run, /*with_engines=*/false);
  AddLoadGeneratorFlags(sub, &f->load_generator);
  AddBoolFlag(sub, "--skip-destroy", &f->skip_destroy, "Keep the setup after the run");
  AddBoolFlag(sub, "--no-pin", &f->no_pin,
              "Local provider: do not split the CPUs between engine and load generator");
  AddYesFlag(sub, &f->yes);
  AddBoolFlag(sub, "--dry-run", &f->dry_run,
              "Print the plan and stop: nothing is created, here or on the hosts (aws: the "
              "template is saved as stack.yaml, no AWS call)");
  SetExamples(sub,
              "  dfbench quickstart\n"
              "  dfbench quickstart --engines redis,memcached --trials 5\n"
              "  dfbench quickstart --engines redis --redis_io_threads 2 --skip-destroy\n"
              "  dfbench quickstart --provider ssh --server 10.0.0.2 --client 10.0.0.3 \\\n"
              "      --ssh-user ubuntu --engines redis,valkey --yes\n"
              "  dfbench quickstart --provider aws --server-instance c6i.2xlarge --yes\n"
              "\nOn the ssh and aws providers quickstart prints its plan (on aws with the $/hr\n"
              "estimate) and asks before changing anything; --yes or DFBENCH_NO_CONFIRM=1 skips\n"
              "the question, which is required without a terminal. Any AWS fleet flag implies\n"
              "--provider aws.\n");
  sub->callback([f, action, sub] { *action = [f, sub] { return RunQuickstart(*f, sub); }; });
}

}  // namespace dfbench::cli
