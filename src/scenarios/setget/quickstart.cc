#include "scenarios/setget/quickstart.h"

#include <vector>

#include "core/log.h"
#include "core/time_format.h"
#include "engines/engine.h"
#include "scenarios/frame/bench_session.h"

namespace dfbench::scenarios {
namespace {

// After setup failed: its error, then the stack it left is deleted (or, when kept as asked,
// named with its cost and the destroy command), so that nothing keeps billing unannounced.
// A stack that would not go is named with the command that retries.
void AfterFailedSetup(const std::string& id, const core::Error& error, bool keep_setup) {
  core::Note(error.message);
  const auto left = StackLeftByFailedSetup(id);
  if (!left) return;
  if (keep_setup) {
    core::Note(providers::StillRunningLine(*left) + " (kept as asked)");
    return;
  }
  core::Notef("setup {} failed: deleting its stack {}", id, left->stack_name);
  if (auto st = DestroySetup(id); !st) {
    core::Note("destroy: " + st.error().message);
    core::Notef("the stack {} may still be running: run '{}'", left->stack_name,
                state::DestroyCommand(id));
    return;
  }
  // The last line says how it ended: destroy's own "Done." is not the quickstart's.
  core::Notef("quickstart {} failed; its stack {} is deleted, nothing is left running", id,
              left->stack_name);
}

}  // namespace

core::Status Quickstart(SetupOptions setup_options, SetGetOptions run_options, bool keep_setup,
                        const PublishRun& publish, const core::Clock& clock) {
  // Named here, so that a setup that fails half-way can be found and cleaned up.
  if (setup_options.id.empty()) {
    setup_options.id = core::FormatTimestampId(clock.WallNow());
  }
  auto setup = CreateSetup(setup_options, clock);
  if (!setup) {
    AfterFailedSetup(setup_options.id, setup.error(), keep_setup);
    return tl::unexpected(setup.error());
  }
  run_options.engines.clear();
  // An endpoint setup asks for no engine: its endpoints name them, so it runs every engine the
  // setup found (without this, quickstart --endpoint had no engine to run).
  std::vector<const engines::EngineSpec*> wanted = setup_options.engines;
  if (wanted.empty()) {
    for (const auto& install : setup->engines) {
      if (const auto* spec = engines::FindEngine(install.name)) wanted.push_back(spec);
    }
  }
  for (const auto* spec : wanted) {
    const auto* install = setup->FindEngine(spec->name);
    if (install && install->status == state::InstallStatus::kInstalled)
      run_options.engines.push_back(spec);
  }
  const ScenarioRequest request{.setup_id = setup->id,
                                .driver = run_options.driver,
                                .engines = run_options.engines,
                                .tuning = run_options.tuning};
  auto run = RunScenario(request, [&](BenchSession& session) {
    return RunSetGet(&session.setup(), session.fleet(), run_options);
  });
  core::Status ended = core::Ok();
  if (run) {
    publish(*run);
  } else {
    core::Note(run.error().message);
    ended = tl::unexpected(run.error());
  }
  if (keep_setup) {
    core::Notef("kept setup {} as asked; remove it with '{}'", setup->id,
                state::DestroyCommand(setup->id));
  } else if (auto st = DestroySetup(setup->id); !st) {
    core::Note("destroy: " + st.error().message);
    if (ended) ended = st;
  }
  return ended;
}

}  // namespace dfbench::scenarios
