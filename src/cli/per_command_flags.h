// Flags shared by `run-commands` and `run-commands-dfly`: which command (built-in or custom),
// the key range, the time-boxed trial structure, engine tuning and the output form.
#pragma once

#include <string>
#include <vector>

#include "cli/bench_metrics_flags.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_flags.h"
#include "scenarios/commands/run_commands.h"

namespace dfbench::cli {

struct PerCommandFlags {
  std::string command;           // a built-in name
  std::string command_template;  // or a custom command
  std::string command_name;
  bool command_mutates = false;
  bool command_drains = false;
  std::string preload_template;
  int preload_items = 1;
  uint64_t command_key_maximum = 0;
  core::Load load = core::kCommandLoad;  // --key-maximum and AddLoadFlags'
  int test_time_sec = static_cast<int>(core::kCommandTestTime.count());
  int warmup_time_sec = static_cast<int>(core::kCommandWarmupTime.count());
  std::string key_letter;  // the load generator's key-distribution flag
  int trials = 3;
  double max_error_pct = results::kDefaultMaxErrorPct;
  std::string cooldown = "30s";
  std::string output = "table";
  TuningFlags tuning;
  VersionFlags versions;                     // installed before the run
  std::vector<std::string> client_profiles;  // --client-profile, as given
  int loadgen_processes = 1;
  bool per_client = false;
  BenchMetricsFlags metrics;  // run-commands only: dfly_bench sends none
  LoadFlagsOf spelling = LoadFlagsOf::kRunCommands;
  const CLI::App* sub = nullptr;  // the command line they were parsed from
  // Whether `flag` was given.
  bool Given(const std::string& flag) const;
};

// Adds the flags, the load flags and the key-distribution flag last, as `spelling`'s command
// spells them (run-commands: memtier's, run-commands-dfly: dfly_bench's).
void AddPerCommandFlags(CLI::App* sub, PerCommandFlags* flags, LoadFlagsOf spelling);

// Checks every rule (one --command or --command-template, custom-only flags, templates,
// --preload-items / --command-key-maximum, Redis-protocol `engines`, --dragonfly_num_shards
// when dragonfly runs, at least one key per connection for the parallel key pattern) and
// builds the scenario options; throws ExitError(kUsage) with one line. The caller sets driver
// and rate_per_connection.
scenarios::CommandOptions ToCommandOptions(const PerCommandFlags& flags,
                                           const std::string& engines);

}  // namespace dfbench::cli
