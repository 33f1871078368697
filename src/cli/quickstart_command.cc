#include "cli/commands.h"
#include "cli/provider_flags.h"
#include "cli/setup_flags.h"
#include "scenarios/quickstart.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

struct QuickstartFlags {
  SetupTargetFlags target;
  RunFlags run;
  LoadGeneratorFlags load_generator;
  bool skip_destroy = false;
};

int RunQuickstart(const QuickstartFlags& f, const CLI::App* sub) {
  const SetupTargetFlags& t = f.target;
  const auto requested = ParseEngines(t.engines.engines);
  const state::ProviderKind provider = ResolveProvider(sub, t.provider);
  RunFlags run = f.run;
  if (provider == state::ProviderKind::kLocal) ApplyLocalProfile(sub, &run);
  scenarios::RunOptions options = ToRunOptions(run, requested);
  auto driver = MakeDriver(f.load_generator);
  scenarios::SetupOptions setup_options{.id = t.id,
                                        .provider = provider,
                                        .engines = requested,
                                        .binaries = t.engines.binaries,
                                        .versions = ParseVersions(t.engines.versions),
                                        .skip_missing_engines = true,
                                        .pin_cpus = !t.no_pin,
                                        .engine_port = t.port};
  ApplySshFlags(t.ssh, &setup_options);
  // A remote client without memtier_benchmark gets it built there by setup.
  setup_options.client_tools.memtier = state::IsRemote(provider) &&
                                       f.load_generator.name == "memtier" &&
                                       f.load_generator.memtier_binary.empty();
  if (!PlanAndConfirm(t, &setup_options, /*quickstart=*/true, f.skip_destroy)) return 0;
  options.driver = driver.get();
  return OrExit(
      scenarios::Quickstart(setup_options, options, ToOutputFormat(f.run.output), f.skip_destroy));
}

}  // namespace

void AddQuickstart(CLI::App* sub, Action* action) {
  auto f = std::make_shared<QuickstartFlags>();
  AddSetupTargetFlags(sub, &f->target);
  AddRunFlags(sub, &f->run, /*with_engines=*/false);
  AddLoadGeneratorFlags(sub, &f->load_generator);
  AddBoolFlag(sub, "--skip-destroy", &f->skip_destroy, "Keep the setup after the run");
  AddSetupConfirmFlags(sub, &f->target);
  sub->callback([f, action, sub] { *action = [f, sub] { return RunQuickstart(*f, sub); }; });
}

}  // namespace dfbench::cli
