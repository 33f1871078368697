// How a finished run reaches the user: its results on stdout in the chosen form, their
// location on stderr, and the exit code its status stands for. One place for every scenario;
// a new result kind adds only its Render overload.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/enum_names.h"
#include "core/error.h"
#include "results/command_schema.h"
#include "results/memory_schema.h"
#include "results/replication_schema.h"
#include "results/schema.h"
#include "results/sweep_schema.h"

namespace dfbench::scenarios {

enum class OutputFormat { kTable, kJson, kCsv };
inline constexpr core::EnumNames<OutputFormat, 3> kOutputFormatNames{
    {{{OutputFormat::kTable, "table"},
      {OutputFormat::kJson, "json"},
      {OutputFormat::kCsv, "csv"}}}};

// The results in `format`: the comparison table, results.json's text or results.csv's. With
// `per_client`, the table is followed by each load generator's part of each trial measured by
// several (--per-client).
std::string Render(const results::RunResults& r, OutputFormat format, bool per_client = false);
std::string Render(const results::CommandRunResults& r, OutputFormat format,
                   bool per_client = false);
std::string Render(const results::MemoryRunResults& r, OutputFormat format);
// Defined with the replication scenario (replication.cc), whose table it is.
std::string Render(const results::ReplicationRunResults& r, OutputFormat format);
std::string Render(const results::SweepResults& r, OutputFormat format);

// The exit-status rule of every run: 0 when it completed, 130 when it was interrupted, 1 when
// an engine failed (saying so on stderr).
int ExitCode(std::optional<results::RunStatus> run_status);

// Writes `rendered` to stdout and "results: <path>" to stderr; returns ExitCode(run_status).
int Publish(const std::string& rendered, const std::filesystem::path& results_path,
            std::optional<results::RunStatus> run_status);

}  // namespace dfbench::scenarios
