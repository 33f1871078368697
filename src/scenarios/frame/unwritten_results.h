// Where a run's results go when their own run directory refuses them (made read-only or
// immutable, the disk full): the numbers already measured are kept in the first place that
// takes them, and the run names it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/error.h"

namespace dfbench::scenarios {

// Writes `json`, run `run_id`'s results.json text, to <setup dir>/unwritten-<run id>.json, or
// when that fails to $TMPDIR (or /tmp)/dfbench-<setup id>-<run id>.json. Returns the path
// written; kEnvironment naming both attempts when neither took it.
core::Result<std::filesystem::path> KeepUnwrittenResults(const std::string& setup_id,
                                                         const std::string& run_id,
                                                         std::string_view json);

}  // namespace dfbench::scenarios
