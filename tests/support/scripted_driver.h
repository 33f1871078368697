// A load generator whose trials the test writes: each Run sends the scripted trial's `ops` as
// real SETs to the target, so the server's own count agrees, and returns the scripted figures
// (or the scripted error). The scenario around it stays real (setup, engines, files, the
// server's cross-check); only the generator's measurement is made up, so a test can pin the
// exact figures a run records and aggregates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "drivers/driver.h"

namespace dfbench::testing {

struct ScriptedTrial {
  results::TrialResult result;
  std::optional<uint64_t> sent;      // SETs sent for real; result.ops when not set
  std::optional<core::Error> error;  // set: Run returns it, after sending
};

class ScriptedDriver : public drivers::Driver {
 public:
  explicit ScriptedDriver(std::vector<ScriptedTrial> script) : script_(std::move(script)) {}

  core::LoadGenerator Kind() const override { return core::LoadGenerator::kBuiltin; }
  // The next scripted trial; kFailure once the script is spent.
  core::Result<results::TrialResult> Run(hosts::Host& client, const drivers::Target& target,
                                         const core::Load& load, const core::Pass& pass,
                                         const std::vector<int>& cpus,
                                         const std::filesystem::path& raw_report) override;

  size_t runs() const { return runs_; }

 private:
  std::vector<ScriptedTrial> script_;
  size_t runs_ = 0;
};

}  // namespace dfbench::testing
