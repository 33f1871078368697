// memtier_benchmark as the load generator: the same Workload as the built-in driver, run on the
// client host with memtier's own flags, its --json-out-file report kept and parsed.
#pragma once

#include <string>
#include <vector>

#include "drivers/driver.h"

namespace dfbench::drivers {

class MemtierDriver : public Driver {
 public:
  // `binary`: memtier_benchmark on the client host; empty: found on the host's PATH.
  explicit MemtierDriver(std::string binary = "") : binary_(std::move(binary)) {}

  std::string Name() const override { return "memtier"; }
  // kEnvironment "memtier_benchmark not found on the client host (install it or pass
  // --memtier-binary PATH)".
  core::Status Prepare(hosts::Host& client) override;
  core::Result<results::TrialResult> Run(hosts::Host& client, const Target& target,
                                         const Workload& workload, const std::vector<int>& cpus,
                                         const std::filesystem::path& raw_report) override;

  // memtier_benchmark's command line for a workload. Fills use P with an explicit per-client
  // request count over ExactFillLayout connections (memtier's "-n allkeys" ignores P in
  // arbitrary-command mode and rounds slices up). kUsage for what memtier cannot express (a
  // per-connection rate, a fill without a command).
  static core::Result<std::vector<std::string>> BuildArgs(const std::string& binary,
                                                          const Target& target,
                                                          const Workload& workload,
                                                          const std::string& report_path);

  // A memtier report of a pass of `workload`; time-boxed passes take Count over the test time
  // rather than memtier's sometimes-wrong duration.
  static core::Result<results::TrialResult> ParseReport(const std::string& json_text,
                                                        const Workload& workload);

 private:
  std::string binary_;
  std::string resolved_;  // set by Prepare
};

}  // namespace dfbench::drivers
