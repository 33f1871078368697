// What a benchmark scenario hands back once its run is finished: the command line shows it and
// picks the exit code, so that no scenario writes stdout.
#pragma once

#include <filesystem>
#include <optional>

#include "core/error.h"
#include "results/run_status.h"

namespace dfbench::scenarios {

template <class Results>
struct RunOutcome {
  Results results;
  std::filesystem::path results_path;  // the run's results.json; empty when unsaved
  // Why the run could not be saved (BenchSession::FinishRun): its results were measured all the
  // same, so they are still shown.
  std::optional<core::Error> unsaved_error;

  std::optional<results::RunStatus> status() const { return results.status; }
};

}  // namespace dfbench::scenarios
