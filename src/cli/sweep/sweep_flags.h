// The flags of `sweep` and the rules that turn them into its scenario's options.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/flags.h"
#include "scenarios/sweep/sweep.h"

namespace dfbench::cli {

struct SweepFlags {
  BenchTargetFlags target;
  core::Load load = core::kRunLoad;  // key_maximum: --key-maximum
  std::vector<std::string> slo;
  std::string step_time = "10s";
  int confirm = 2;
  double max_error_pct = 0;  // a sweep's steps are strict: any error fails one by default
  std::string cooldown = "30s";
  std::string output = "table";
  TuningFlags tuning;
  BenchMetricsFlags metrics;
};

// Every flag of sweep but --id and --engines (AddBenchCommand's).
void AddSweepFlags(CLI::App* sub, SweepFlags* flags);

// --step-time as whole seconds, at least one; ExitError(kUsage) otherwise.
std::chrono::seconds ToStepTime(const std::string& text);

// Checks the values CLI11 cannot (engines, --step-time, each --slo, --cooldown) and
// builds the options; throws ExitError with one line naming the flag. The caller sets driver.
scenarios::SweepOptions ToSweepOptions(const SweepFlags& flags);

}  // namespace dfbench::cli
