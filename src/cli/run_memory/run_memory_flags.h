// The flags of `run-memory` and the rules that turn them into its scenario's options.
#pragma once

#include <string>

#include "cli/command.h"
#include "cli/flags.h"
#include "scenarios/memory/run_memory.h"

namespace dfbench::cli {

struct RunMemoryFlags {
  BenchTargetFlags target;
  std::string keys = "1M";
  std::string snapshot = "bgsave";
  std::string snapshot_dir;
  std::string snapshot_delay = "5s";
  std::string snapshot_timeout = "0";
  std::string update_rate = "0";
  std::string test_time = "30s";
  core::Load load = core::kMemoryLoad;  // data_size: --value-size
  int trials = 1;
  double max_error_pct = results::kDefaultMaxErrorPct;
  std::string cooldown = "10s";
  std::string output = "table";
  TuningFlags tuning;
};

// Every flag of run-memory but --id and --engines (AddBenchCommand's).
void AddRunMemoryFlags(CLI::App* sub, RunMemoryFlags* flags);

// Reads the counts (k, M suffixes) and durations, checks the options as the scenario does and
// builds them; throws ExitError naming the flag (the scenario names options by field:
// OrExitNamingFlags). The caller sets driver.
scenarios::MemoryOptions ToRunMemoryOptions(const RunMemoryFlags& flags);

}  // namespace dfbench::cli
