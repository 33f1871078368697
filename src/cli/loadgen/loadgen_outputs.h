// loadgen's output flags, spelled and behaving as memtier_benchmark's: -o/--out-file,
// --command-stats-breakdown, --error-replies (ours: how error replies are counted),
// --show-config, -v/--version, -D/--debug, and -x/--run-count with --print-all-runs.
#pragma once

#include <string>

#include "cli/command.h"
#include "cli/loadgen/loadgen_options.h"
#include "core/error.h"
#include "loadgen/config.h"

namespace dfbench::cli {

void AddOutputFlags(CLI::App* sub, LoadgenOptions* options);

// The text flags among them, read into `config`; kUsage with one line on a bad value.
core::Status ParseOutputOptions(const LoadgenOptions& options, loadgen::Config* config);

// memtier's --show-config listing (memtier_benchmark.cpp config_print): its field names, in its
// order, for the settings loadgen has; never the password.
std::string ShowConfig(const loadgen::Config& config, const std::string& uri);

// memtier's --version shape, with dfbench's version, and what this binary is.
std::string VersionText();

}  // namespace dfbench::cli
