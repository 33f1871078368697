#include "cli/commands.h"
#include "cli/quickstart_flags.h"
#include "scenarios/setget/quickstart.h"

namespace dfbench::cli {
namespace {

int RunQuickstart(const QuickstartFlags& f, const CLI::App* sub) {
  QuickstartOptions o = ToQuickstartOptions(f, sub);
  if (!PlanAndConfirm(f.target, &o.setup, /*quickstart=*/true, f.skip_destroy)) return 0;
  o.run.driver = o.driver.get();
  return OrExit(
      scenarios::Quickstart(o.setup, o.run, ToOutputFormat(f.run.output), f.skip_destroy));
}

}  // namespace

void AddQuickstart(CLI::App* sub, Action* action) {
  AddFlagsCommand(sub, action, &AddQuickstartFlags,
                  [sub](const QuickstartFlags& f) { return RunQuickstart(f, sub); });
}

}  // namespace dfbench::cli
