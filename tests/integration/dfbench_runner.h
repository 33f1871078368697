// Runs the built dfbench binary with its state under a private DFBENCH_HOME.
#pragma once

#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/subprocess.h"
#include "support/processes.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::testing {

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};

// The stdout of `r`, a run that must succeed, parsed as JSON; a test failure (and an empty
// object) when it did not.
nlohmann::json SucceededJson(const CliResult& r);

class DfbenchRunner {
 public:
  // A fresh, empty DFBENCH_HOME in the temporary directory, removed with the runner.
  explicit DfbenchRunner(const std::string& name);

  CliResult Run(const std::vector<std::string>& args,
                std::chrono::milliseconds timeout = std::chrono::minutes(5)) const;
  // Runs `args`, which must succeed: a fatal failure showing its stderr otherwise (call it
  // under ASSERT_NO_FATAL_FAILURE).
  void RunOk(const std::vector<std::string>& args) const;
  // Starts dfbench in the background (stdout/stderr to files under home()).
  core::Process Start(const std::vector<std::string>& args) const;
  // argv that runs dfbench with this runner's environment.
  std::vector<std::string> Argv(const std::vector<std::string>& args) const;

  const std::filesystem::path& home() const { return home_.path(); }
  std::filesystem::path SetupDir(const std::string& id) const { return home_ / "runs" / id; }
  nlohmann::json State(const std::string& id) const;
  // The entries of `engine`'s directory in the engine cache (staging leftovers included).
  std::vector<std::string> CacheEntries(const std::string& engine) const;

  // The end of the background run's stderr, for failure messages.
  std::string BackgroundErrTail() const;
  // Waits (up to `timeout`) for the background run's stderr to contain `text`.
  bool WaitForBackgroundErr(const std::string& text, std::chrono::seconds timeout) const;
  // Waits (up to 60 s) for a run directory of setup `id` under `kind` ("benchmarks", "sweeps",
  // "memory") that `ready` accepts, as a background run writes it; empty, with a failure showing
  // the run's stderr, when none comes.
  std::filesystem::path WaitForRunDir(
      const std::string& id, const std::string& kind,
      const std::function<bool(const std::filesystem::path& run_dir)>& ready) const;
  // Sends `signal` (SIGINT, SIGTERM, SIGHUP) to the background run and expects it to exit with
  // 130 within `timeout`.
  void Interrupt(core::Process* run, std::chrono::milliseconds timeout = std::chrono::seconds(30),
                 int signal = SIGINT) const;

 private:
  ScopedTempDir home_;
};

// Ends a test suite's shared setup: destroys setup `id`, checks that no process of the runner's
// home is left, and deletes the runner.
void EndSuiteSetup(DfbenchRunner*& dfb, const std::string& id);

// Whether results.json in `run_dir`, as far as it is written, has `n` or more items in the first
// engine's `field` ("trials", "steps").
bool FirstEngineHas(const std::filesystem::path& run_dir, const std::string& field, size_t n);

// Number of stderr lines that are not empty.
int CountLines(const std::string& text);

}  // namespace dfbench::testing
