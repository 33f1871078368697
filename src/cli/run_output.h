// How a finished run reaches the user: its results on stdout in the chosen form, their
// location on stderr, and the exit code its status stands for. One place for every benchmark
// command; a new result kind adds only its Render overload.
#pragma once

#include <optional>
#include <string>

#include "core/enum_names.h"
#include "core/error.h"
#include "results/command_schema.h"
#include "results/memory_schema.h"
#include "results/replication_schema.h"
#include "results/schema.h"
#include "results/sweep_schema.h"
#include "scenarios/frame/run_outcome.h"

namespace dfbench::cli {

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
std::string Render(const results::ReplicationRunResults& r, OutputFormat format);
std::string Render(const results::SweepResults& r, OutputFormat format);

// The exit-status rule of every run: 0 when it completed, 130 when it was interrupted, 1 when
// an engine failed (saying so on stderr).
int ExitCode(std::optional<results::RunStatus> run_status);

// Writes `rendered` to stdout, then "results: <path>" to stderr and returns ExitCode of the
// run's status; results that could not be saved are still written, then their error returned.
core::Result<int> Publish(const std::string& rendered, const std::filesystem::path& results_path,
                          const std::optional<core::Error>& unsaved_error,
                          std::optional<results::RunStatus> run_status);

// Publish of `outcome` rendered in `format` (with each load generator's part when `per_client`
// and the result kind has one).
template <class Results>
core::Result<int> Publish(const scenarios::RunOutcome<Results>& outcome, OutputFormat format,
                          bool per_client = false) {
  const Results& r = outcome.results;
  std::string rendered;
  if constexpr (requires { Render(r, format, per_client); }) {
    rendered = Render(r, format, per_client);
  } else {
    rendered = Render(r, format);
  }
  return Publish(rendered, outcome.results_path, outcome.unsaved_error, outcome.status());
}

}  // namespace dfbench::cli
