// One driver for every external load generator (memtier_benchmark, dfly_bench): what differs
// between them is a ToolSpec, so adding a generator takes one small spec file.
#pragma once

#include <string>
#include <vector>

#include "drivers/driver.h"
#include "drivers/tool_runner.h"

namespace dfbench::drivers {

// Builds a tool's command line: (binary, target, load, pass, report path). kUsage for what the
// tool cannot express.
using ToolArgsBuilder = core::Result<std::vector<std::string>> (*)(const std::string& binary,
                                                                   const Target& target,
                                                                   const core::Load& load,
                                                                   const core::Pass& pass,
                                                                   const std::string& report);
// Reads what a tool left of `pass` (kUsage when malformed, naming the file).
using ToolReportParser = core::Result<results::TrialResult> (*)(const ToolOutput& output,
                                                                const core::Pass& pass);

// A memtier-format report (ParseLoadReport; the stdout is not read); time-boxed passes take Count
// over the test time rather than the tool's sometimes-wrong duration.
core::Result<results::TrialResult> ParseToolReport(const ToolOutput& output,
                                                   const core::Pass& pass);

// What one external load generator is.
struct ToolSpec {
  core::LoadGenerator kind;
  std::string program;  // on the client host's PATH unless given: "memtier_benchmark"
  // How to provide it, ending the one-line "not found" error: "install it or pass
  // --memtier-binary PATH".
  std::string how_to_provide;
  ToolArgsBuilder build_args = nullptr;
  ToolReportParser parse_report = &ParseToolReport;
  RetryPolicy retry;  // one retry on an empty report or zero operations
};

class ExternalToolDriver : public Driver {
 public:
  // `binary`: the tool on the client host; empty: `spec.program` found on the host's PATH.
  explicit ExternalToolDriver(const ToolSpec& spec, std::string binary = "")
      : spec_(spec), binary_(std::move(binary)) {}

  core::LoadGenerator Kind() const override { return spec_.kind; }
  // kEnvironment "<program> not found on the client host (<how_to_provide>)".
  core::Status Prepare(hosts::Host& client) override;
  // The tool's path on the client host as Prepare found it; empty before.
  const std::string& resolved_binary() const { return resolved_; }
  // A scratch report on the host, the spec's argv, a timeout covering a time-boxed pass, and
  // RunToolPass with the spec's parser and retry policy.
  core::Result<results::TrialResult> Run(hosts::Host& client, const Target& target,
                                         const core::Load& load, const core::Pass& pass,
                                         const std::vector<int>& cpus,
                                         const std::filesystem::path& raw_report) override;

 private:
  const ToolSpec& spec_;
  std::string binary_;
  std::string resolved_;  // set by Prepare
};

// The driver of one spec as its own type, e.g. `using MemtierDriver = ToolDriver<&MemtierSpec>`,
// with the spec's argv builder and parser at hand for config.json and tests.
template <const ToolSpec& (*Spec)()>
class ToolDriver : public ExternalToolDriver {
 public:
  explicit ToolDriver(std::string binary = "") : ExternalToolDriver(Spec(), std::move(binary)) {}

  static core::Result<std::vector<std::string>> BuildArgs(const std::string& binary,
                                                          const Target& target,
                                                          const core::Load& load,
                                                          const core::Pass& pass,
                                                          const std::string& report_path) {
    return Spec().build_args(binary, target, load, pass, report_path);
  }
  static core::Result<results::TrialResult> ParseReport(const ToolOutput& output,
                                                        const core::Pass& pass) {
    return Spec().parse_report(output, pass);
  }
};

}  // namespace dfbench::drivers
