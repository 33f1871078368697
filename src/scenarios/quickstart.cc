#include "scenarios/quickstart.h"

#include "core/log.h"
#include "scenarios/bench_session.h"

namespace dfbench::scenarios {

core::Result<int> Quickstart(const SetupOptions& setup_options, RunOptions run_options,
                             OutputFormat format, bool keep_setup) {
  auto setup = CreateSetup(setup_options);
  if (!setup) return tl::unexpected(setup.error());
  run_options.engines.clear();
  for (const auto* spec : setup_options.engines) {
    const auto* install = setup->FindEngine(spec->name);
    if (install && install->status == state::InstallStatus::kInstalled)
      run_options.engines.push_back(spec);
  }
  const ScenarioRequest request{
      .setup_id = setup->id, .driver = run_options.driver, .engines = {}, .format = format};
  auto run = RunScenario(request, [&](BenchSession& session) {
    return RunBenchmark(&session.setup(), session.fleet(), run_options);
  });
  int code = 0;
  if (run) {
    code = *run;
  } else {
    core::Note(run.error().message);
    code = static_cast<int>(run.error().kind);
  }
  if (keep_setup) {
    core::Notef("kept setup {} (--skip-destroy); remove it with 'dfbench destroy --id {}'",
                setup->id, setup->id);
  } else if (auto st = DestroySetup(setup->id); !st) {
    core::Note("destroy: " + st.error().message);
    if (code == 0) code = static_cast<int>(st.error().kind);
  }
  return code;
}

}  // namespace dfbench::scenarios
