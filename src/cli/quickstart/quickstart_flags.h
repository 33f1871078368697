// The flags of `quickstart` and the rules that turn them into the setup it creates and the run
// it makes there.
#pragma once

#include <memory>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/setup/setup_flags.h"

namespace dfbench::cli {

struct QuickstartFlags {
  SetupTargetFlags target;
  SetGetFlags run;
  bool skip_destroy = false;
};

// Every flag of quickstart: setup's target flags, run's, --skip-destroy, then the confirmation.
void AddQuickstartFlags(CLI::App* sub, QuickstartFlags* flags);

struct QuickstartOptions {
  scenarios::SetupOptions setup;
  scenarios::SetGetOptions run;  // its driver is set to `driver` when the run starts
  std::unique_ptr<drivers::Driver> driver;
};

// The provider resolved from the flags given on `sub` (ResolveProvider), the local profile on
// the local provider (ApplyLocalProfile), the run's options, the load generator and the setup's
// options (engines that cannot be installed skipped; memtier_benchmark built on a remote client
// that is to run it without a binary given); throws ExitError with one line. The plan and the
// prompt come after (PlanAndConfirm).
QuickstartOptions ToQuickstartOptions(const QuickstartFlags& flags, const CLI::App* sub);

}  // namespace dfbench::cli
