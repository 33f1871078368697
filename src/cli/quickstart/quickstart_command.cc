#include "cli/commands.h"
#include "cli/quickstart/quickstart_flags.h"
#include "cli/run_output.h"
#include "core/log.h"
#include "scenarios/setget/quickstart.h"

namespace dfbench::cli {
namespace {

int RunQuickstart(const QuickstartFlags& f, const CLI::App* sub) {
  QuickstartOptions o = ToQuickstartOptions(f, sub);
  if (!PlanAndConfirm(f.target, &o.setup, /*quickstart=*/true, f.skip_destroy)) return 0;
  o.run.driver = o.driver.get();
  const OutputFormat format = ToOutputFormat(f.run.output);
  int run_code = 0;
  // Shown before the setup goes, which happens whatever the run's code: an unsaved run says why.
  const auto publish = [&](const scenarios::RunOutcome<results::RunResults>& outcome) {
    auto code = Publish(outcome, format, o.run.per_client);
    if (!code) core::Note(code.error().message);
    run_code = code ? *code : static_cast<int>(code.error().kind);
  };
  const core::Status ended = scenarios::Quickstart(o.setup, o.run, f.skip_destroy, publish);
  // The run's code first, then what failed around it (already a line on stderr).
  if (run_code != 0 || ended) return run_code;
  return static_cast<int>(ended.error().kind);
}

}  // namespace

void AddQuickstart(CLI::App* sub, Action* action) {
  AddFlagsCommand(sub, action, &AddQuickstartFlags,
                  [sub](const QuickstartFlags& f) { return RunQuickstart(f, sub); });
}

}  // namespace dfbench::cli
