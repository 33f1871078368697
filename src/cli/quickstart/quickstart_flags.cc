#include "cli/quickstart/quickstart_flags.h"

#include "cli/provider_flags.h"
#include "state/state.h"

namespace dfbench::cli {

void AddQuickstartFlags(CLI::App* sub, QuickstartFlags* f) {
  AddSetupTargetFlags(sub, &f->target);
  AddSetGetFlags(sub, &f->run, /*with_versions=*/false);
  AddBoolFlag(sub, "--skip-destroy", &f->skip_destroy, "Keep the setup after the run");
  AddSetupConfirmFlags(sub, &f->target);
}

QuickstartOptions ToQuickstartOptions(const QuickstartFlags& f, const CLI::App* sub) {
  const SetupTargetFlags& t = f.target;
  const auto requested = ParseEngines(t.engines.engines);
  const state::ProviderKind provider = ResolveProvider(sub, t.provider);
  SetGetFlags run = f.run;
  if (provider == state::ProviderKind::kLocal) ApplyLocalProfile(sub, &run);
  QuickstartOptions o;
  o.run = ToSetGetOptions(run, requested);
  const LoadGeneratorFlags& load_generator = f.run.load_generator;
  o.driver = MakeDriver(load_generator);
  CheckLiveMetricsFor(*o.driver, o.run.live_metrics);
  o.setup = ToSetupOptions(t, provider, requested);
  o.setup.skip_missing_engines = true;
  // A remote client without memtier_benchmark gets it built there by setup.
  // (quickstart's run needs no other tool, so it builds no other).
  if (state::IsRemote(provider) &&
      ToLoadGenerator(load_generator.name) == core::LoadGenerator::kMemtier &&
      load_generator.memtier_binary.empty()) {
    o.setup.client_tools.memtier = providers::ToolNeed::kRequired;
  }
  return o;
}

}  // namespace dfbench::cli
