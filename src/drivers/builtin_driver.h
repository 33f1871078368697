// The built-in load generator: runs `dfbench loadgen` on the client host.
#pragma once

#include "drivers/driver.h"

namespace dfbench::drivers {

class BuiltinDriver : public Driver {
 public:
  core::LoadGenerator Kind() const override { return core::LoadGenerator::kBuiltin; }
  bool KeepsPasswordsPrivate() const override { return true; }
  core::Result<results::TrialResult> Run(hosts::Host& client, const Target& target,
                                         const core::Load& load, const core::Pass& pass,
                                         const std::vector<int>& cpus,
                                         const std::filesystem::path& raw_report) override;

  // The loadgen command line of a pass (exposed for tests).
  static std::vector<std::string> BuildArgs(const std::string& binary, const Target& target,
                                            const core::Load& load, const core::Pass& pass,
                                            const std::string& report_path);
  // The same for a generator that runs in the background while the caller does other things
  // (scenarios/frame/background_load.h): no progress line, which nobody would see.
  static std::vector<std::string> BuildBackgroundArgs(const std::string& binary,
                                                      const Target& target, const core::Load& load,
                                                      const core::Pass& pass,
                                                      const std::string& report_path);
  // The environment that hands the generator the target's password (none without one).
  static std::vector<std::pair<std::string, std::string>> SecretEnv(const Target& target);
};

}  // namespace dfbench::drivers
