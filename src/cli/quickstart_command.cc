#include "cli/commands.h"
#include "cli/quickstart_flags.h"
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
  // The setup is destroyed after the run is shown, whatever its code: an unsaved run says why.
  const auto publish = [&](const scenarios::RunOutcome<results::RunResults>& outcome) {
    auto code = Publish(outcome, format);
    if (code) return *code;
    core::Note(code.error().message);
    return static_cast<int>(code.error().kind);
  };
  return scenarios::Quickstart(o.setup, o.run, f.skip_destroy, publish);
}

}  // namespace

void AddQuickstart(CLI::App* sub, Action* action) {
  AddFlagsCommand(sub, action, &AddQuickstartFlags,
                  [sub](const QuickstartFlags& f) { return RunQuickstart(f, sub); });
}

}  // namespace dfbench::cli
