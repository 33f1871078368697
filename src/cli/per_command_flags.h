// Flags shared by `run-commands` and `run-commands-dfly`: which command (built-in or custom),
// the key range, the time-boxed trial structure, engine tuning and the output form.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_flags.h"
#include "results/command_schema.h"
#include "scenarios/run_commands.h"

namespace dfbench::cli {

struct PerCommandFlags {
  std::string engines;
  std::string command;           // a built-in name
  std::string command_template;  // or a custom command
  std::string command_name;
  bool command_mutates = false;
  bool command_drains = false;
  std::string preload_template;
  int preload_items = 1;
  uint64_t command_key_maximum = 0;
  results::CommandLoadConfig load;  // --key-maximum, --test-time, --warmup-time, AddLoadFlags'
  int trials = 3;
  std::string cooldown = "30s";
  std::string output = "table";
  TuningFlags tuning;
  VersionFlags versions;  // installed before the run
  // Which of the flags above were given (filled after parsing).
  std::vector<std::string> given;
  bool Given(const std::string& flag) const;
};

// Adds the flags, the load flags last; `default_engines` differs between the two commands.
void AddPerCommandFlags(CLI::App* sub, PerCommandFlags* flags, const std::string& default_engines,
                        LoadFlagsOf load_flags);
// Once parsing succeeded: records which of `flags` were given, then sets `run` as the action.
void SetPerCommandAction(CLI::App* sub, Action* action, PerCommandFlags* flags,
                         std::function<int()> run);

// Checks every rule (one --command or --command-template, custom-only flags, templates,
// --preload-items / --command-key-maximum, Redis-protocol engines, --dragonfly_num_shards when
// dragonfly runs) and builds the scenario options; throws ExitError(kUsage) with one line.
// The caller sets driver, key_pattern and rate_per_connection.
scenarios::CommandRunOptions ToCommandRunOptions(const PerCommandFlags& flags);

// kUsage when the key pattern is P and the key range has fewer keys than connections.
void CheckParallelPattern(const scenarios::CommandRunOptions& options);

}  // namespace dfbench::cli
