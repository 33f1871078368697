// dfly_bench (Dragonfly's load generator) as the load generator of `run-commands-dfly`. Its
// --json_out_file report has memtier's layout ("ALL STATS" / "Totals" first, then one section
// per operation named "Sets"/"Gets" or the UPPER-CASE first word of --command), so the same
// report parser reads it.
#pragma once

#include <string>
#include <vector>

#include "drivers/driver.h"

namespace dfbench::drivers {

class DflyBenchDriver : public Driver {
 public:
  // `binary`: dfly_bench on the client host; empty: found on the host's PATH.
  explicit DflyBenchDriver(std::string binary = "") : binary_(std::move(binary)) {}

  std::string Name() const override { return "dfly_bench"; }
  // kEnvironment "dfly_bench not found on the client host (build it from the Dragonfly
  // sources or pass --dfly-bench-binary PATH)".
  core::Status Prepare(hosts::Host& client) override;
  core::Result<results::TrialResult> Run(hosts::Host& client, const Target& target,
                                         const Workload& workload, const std::vector<int>& cpus,
                                         const std::filesystem::path& raw_report) override;

  // dfly_bench's command line (absl --flag=value form). Threads are --proactor_threads,
  // clients -c (per thread); --qps is always explicit (its default is 20, not unlimited).
  // Key patterns map R->U, S->S, G->N, Z->Z; a fill walks the range with --key_dist=S over one
  // connection per thread, the thread count dividing the range (ExactFillLayout). kUsage for
  // what dfly_bench cannot express (the P pattern outside a fill, a fill without a command).
  static core::Result<std::vector<std::string>> BuildArgs(const std::string& binary,
                                                          const Target& target,
                                                          const Workload& workload,
                                                          const std::string& report_path);

  // A dfly_bench report of a pass of `workload` (time-boxed: Count over the test time).
  static core::Result<results::TrialResult> ParseReport(const std::string& json_text,
                                                        const Workload& workload);

 private:
  std::string binary_;
  std::string resolved_;  // set by Prepare
};

}  // namespace dfbench::drivers
