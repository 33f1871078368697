#include "cli/commands.h"
#include "cli/confirm.h"
#include "cli/flags.h"
#include "cli/plan.h"
#include "cli/ssh_flags.h"
#include "core/log.h"
#include "core/time_format.h"
#include "scenarios/lifecycle.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

struct QuickstartFlags {
  std::string id;
  std::string provider = "local";
  EngineFlags engines;
  RunFlags run;
  LoadGeneratorFlags load_generator;
  bool skip_destroy = false;
  bool no_pin = false;
  bool yes = false;
  bool dry_run = false;
  int port = 0;
  SshFlags ssh;
};

int RunQuickstart(const QuickstartFlags& f, const CLI::App* sub) {
  const auto requested = ParseEngines(f.engines.engines);
  RunFlags run = f.run;
  if (f.provider == "local") ApplyLocalProfile(sub, &run);
  scenarios::RunOptions options = ToRunOptions(run, requested);
  auto driver = MakeDriver(f.load_generator);
  scenarios::SetupOptions setup_options{.id = f.id,
                                        .provider = f.provider,
                                        .engines = requested,
                                        .binaries = f.engines.binaries,
                                        .versions = ParseVersions(f.engines),
                                        .skip_missing_engines = true,
                                        .pin_cpus = !f.no_pin,
                                        .dragonfly_version = f.run.tuning.dragonfly_version,
                                        .engine_port = f.port};
  ApplySshFlags(sub, f.ssh, &setup_options);
  if (setup_options.id.empty()) {
    setup_options.id = core::FormatTimestampId(std::chrono::system_clock::now());
  }
  OrExit(state::ValidateId(setup_options.id));
  const std::string plan = SetupPlan(setup_options, /*quickstart=*/true, f.skip_destroy);
  if (f.dry_run) {
    std::fputs(plan.c_str(), stderr);
    core::Note("dry run: nothing was created or changed");
    return 0;
  }
  if (ChangesHosts(setup_options.provider)) OrExit(Confirm(plan, f.yes));
  // The build is installed by setup; the run must not install it again.
  options.tuning.dragonfly_version.clear();
  auto setup = OrExit(scenarios::CreateSetup(setup_options));
  // Run what the setup found; the missing ones were reported while locating them.
  options.engines.clear();
  for (const auto* spec : requested) {
    const auto* install = setup.FindEngine(spec->name);
    if (install && install->status == "installed") options.engines.push_back(spec);
  }
  int code = 0;
  {
    auto session = OrExit(scenarios::WorkSession::Open(setup.id, state::kStatusBenchmarking));
    auto provider = OrExit(providers::MakeProvider(session->setup().provider));
    auto fleet = OrExit(provider->Connect(session->setup()));
    options.driver = driver.get();
    auto r = scenarios::RunBenchmark(&session->setup(), fleet, options);
    if (r) {
      OrExit(session->Save());
      code =
          ReportRun(*r, f.run.output,
                    (state::SetupDir(setup.id) / session->setup().benchmarks.back().path).string());
    } else {
      core::Note(r.error().message);
      code = static_cast<int>(r.error().kind);
    }
  }
  if (f.skip_destroy) {
    core::Notef("kept setup {} (--skip-destroy); remove it with 'dfbench destroy --id {}'",
                setup.id, setup.id);
  } else if (auto st = scenarios::DestroySetup(setup.id); !st) {
    core::Note("destroy: " + st.error().message);
    if (code == 0) code = static_cast<int>(st.error().kind);
  }
  return code;
}

}  // namespace

void AddQuickstart(CLI::App* sub, Action* action) {
  auto f = std::make_shared<QuickstartFlags>();
  sub->add_option("--id", f->id, "Setup name (default: a timestamp)");
  sub->add_option("--provider", f->provider, "Where the hosts come from")
      ->capture_default_str()
      ->check(CLI::IsMember({"local", "ssh"}));
  AddEngineFlags(sub, &f->engines);
  AddSshFlags(sub, &f->ssh, /*with_version=*/false);
  AddPortFlag(sub, &f->port);
  AddRunFlags(sub, &f->run, /*with_engines=*/false);
  AddLoadGeneratorFlags(sub, &f->load_generator);
  AddBoolFlag(sub, "--skip-destroy", &f->skip_destroy, "Keep the setup after the run");
  AddBoolFlag(sub, "--no-pin", &f->no_pin,
              "Local provider: do not split the CPUs between engine and load generator");
  AddYesFlag(sub, &f->yes);
  AddBoolFlag(sub, "--dry-run", &f->dry_run,
              "Print the plan and stop: nothing is created, here or on the hosts");
  SetExamples(sub,
              "  dfbench quickstart\n"
              "  dfbench quickstart --engines redis,memcached --trials 5\n"
              "  dfbench quickstart --engines redis --redis_io_threads 2 --skip-destroy\n"
              "  dfbench quickstart --provider ssh --server 10.0.0.2 --client 10.0.0.3 \\\n"
              "      --ssh-user ubuntu --engines redis,valkey --yes\n"
              "\nOn the ssh provider quickstart prints its plan and asks before changing the\n"
              "hosts; --yes or DFBENCH_NO_CONFIRM=1 skips the question, which is required\n"
              "without a terminal.\n");
  sub->callback([f, action, sub] { *action = [f, sub] { return RunQuickstart(*f, sub); }; });
}

}  // namespace dfbench::cli
