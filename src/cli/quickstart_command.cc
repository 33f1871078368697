#include "cli/commands.h"
#include "cli/provider_flags.h"
#include "cli/setup_flags.h"
#include "scenarios/setget/quickstart.h"
#include "state/state.h"

namespace dfbench::cli {
namespace {

struct QuickstartFlags {
  SetupTargetFlags target;
  RunFlags run;
  bool skip_destroy = false;
};

int RunQuickstart(const QuickstartFlags& f, const CLI::App* sub) {
  const SetupTargetFlags& t = f.target;
  const auto requested = ParseEngines(t.engines.engines);
  const state::ProviderKind provider = ResolveProvider(sub, t.provider);
  RunFlags run = f.run;
  if (provider == state::ProviderKind::kLocal) ApplyLocalProfile(sub, &run);
  scenarios::RunOptions options = ToRunOptions(run, requested);
  const LoadGeneratorFlags& load_generator = f.run.load_generator;
  auto driver = MakeDriver(load_generator);
  scenarios::SetupOptions setup_options = ToSetupOptions(t, provider, requested);
  setup_options.skip_missing_engines = true;
  // A remote client without memtier_benchmark gets it built there by setup.
  // (quickstart's run needs no other tool, so it builds no other).
  if (state::IsRemote(provider) && load_generator.name == "memtier" &&
      load_generator.memtier_binary.empty()) {
    setup_options.client_tools.memtier = providers::ToolNeed::kRequired;
  }
  if (!PlanAndConfirm(t, &setup_options, /*quickstart=*/true, f.skip_destroy)) return 0;
  options.driver = driver.get();
  return OrExit(
      scenarios::Quickstart(setup_options, options, ToOutputFormat(f.run.output), f.skip_destroy));
}

}  // namespace

void AddQuickstart(CLI::App* sub, Action* action) {
  auto f = std::make_shared<QuickstartFlags>();
  AddSetupTargetFlags(sub, &f->target);
  AddRunFlags(sub, &f->run, /*with_versions=*/false);
  AddBoolFlag(sub, "--skip-destroy", &f->skip_destroy, "Keep the setup after the run");
  AddSetupConfirmFlags(sub, &f->target);
  sub->callback([f, action, sub] { *action = [f, sub] { return RunQuickstart(*f, sub); }; });
}

}  // namespace dfbench::cli
