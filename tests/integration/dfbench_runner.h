// Runs the built dfbench binary with its state under a private DFBENCH_HOME.
#pragma once

#include <filesystem>
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

class DfbenchRunner {
 public:
  // A fresh, empty DFBENCH_HOME in the temporary directory, removed with the runner.
  explicit DfbenchRunner(const std::string& name);

  CliResult Run(const std::vector<std::string>& args,
                std::chrono::milliseconds timeout = std::chrono::minutes(5)) const;
  // Starts dfbench in the background (stdout/stderr to files under home()).
  core::Process Start(const std::vector<std::string>& args) const;
  // argv that runs dfbench with this runner's environment.
  std::vector<std::string> Argv(const std::vector<std::string>& args) const;

  const std::filesystem::path& home() const { return home_.path(); }
  std::filesystem::path SetupDir(const std::string& id) const { return home_ / "runs" / id; }
  nlohmann::json State(const std::string& id) const;

 private:
  ScopedTempDir home_;
};

// Ends a test suite's shared setup: destroys setup `id`, checks that no process of the runner's
// home is left, and deletes the runner.
void EndSuiteSetup(DfbenchRunner*& dfb, const std::string& id);

// Number of stderr lines that are not empty.
int CountLines(const std::string& text);

}  // namespace dfbench::testing
