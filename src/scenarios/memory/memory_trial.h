// One trial of the memory scenario on an engine started fresh for it.
#pragma once

#include <filesystem>
#include <string>

#include "core/error.h"
#include "providers/provider.h"
#include "results/memory_schema.h"
#include "scenarios/frame/engine_turn.h"
#include "scenarios/memory/run_memory.h"

namespace dfbench::scenarios {

// Populates `turn`'s engine, records its idle memory, runs the update traffic with a BGSAVE
// after options.snapshot_delay (when the engine snapshots and the mode asks for it) and samples
// the process tree until both ended. A failed snapshot is recorded in the trial with the
// engine's message; errors are what ended the trial (interrupt, engine gone, load failed).
// Raw load reports go to `raw_dir` as <stem>-populate.json and <stem>-load.json.
core::Result<results::MemoryTrial> RunMemoryTrial(providers::Fleet& fleet,
                                                  const MemoryOptions& options, EngineTurn& turn,
                                                  const std::filesystem::path& raw_dir,
                                                  const std::string& stem);

}  // namespace dfbench::scenarios
