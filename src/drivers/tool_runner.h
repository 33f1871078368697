// Running an external load generator (memtier_benchmark, dfly_bench) on the client host:
// finding its binary, one pass with its raw outputs kept, and one retry when a pass comes back
// empty (these tools occasionally produce no report, or zero operations, on a first attempt).
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "drivers/driver.h"
#include "drivers/load_report.h"
#include "hosts/host.h"
#include "results/schema.h"

namespace dfbench::drivers {

// `explicit_path` when given (it must be an executable on the host), else `program` on the
// host's PATH. kEnvironment: "<program> not found on the client host (<how_to_provide>)".
core::Result<std::string> ResolveTool(hosts::Host& host, const std::string& explicit_path,
                                      const std::string& program,
                                      const std::string& how_to_provide);

// A fresh path in the host's work directory for one report, e.g. <work>/memtier-123-4.json.
core::Result<std::string> ScratchReportPath(hosts::Host& host, const std::string& stem);

// One pass of an external tool.
struct ToolPass {
  std::string tool;  // for messages: "memtier_benchmark"
  std::vector<std::string> argv;
  std::string remote_report;  // where the tool writes its JSON on the host (a regular file)
  std::vector<int> cpus;
  std::chrono::milliseconds timeout = std::chrono::hours(6);
  // Parses the JSON report (kUsage when malformed).
  std::function<core::Result<results::TrialResult>(const std::string& json_text)> parse;
};

// Runs the pass, copies the report to `raw_report` and the tool's stdout beside it (same name,
// .txt), and parses it. A pass that fails, leaves no or a malformed report, or reports zero
// operations is retried once after a short pause, with a line on stderr; a second failure is
// kFailure naming the reason. kInterrupted on SIGINT/SIGTERM (never retried).
core::Result<results::TrialResult> RunToolPass(hosts::Host& client, const ToolPass& pass,
                                               const std::filesystem::path& raw_report);

// How to read a report of a pass of `workload`: time-boxed passes take Count over the test
// time rather than the tool's own duration.
ReportOptions ReportOptionsFor(const Workload& workload);

// Builds an external tool's command line: (binary, target, workload, report path).
using ToolArgsBuilder = core::Result<std::vector<std::string>> (*)(const std::string&,
                                                                   const Target&, const Workload&,
                                                                   const std::string&);

// One pass of `workload` with an external tool: a scratch report on the host, the argv from
// `build_args`, a timeout covering a time-boxed pass, and RunToolPass with the report parsed
// by ParseLoadReport(ReportOptionsFor(workload)).
core::Result<results::TrialResult> RunToolWorkload(hosts::Host& client, const std::string& tool,
                                                   const std::string& binary,
                                                   ToolArgsBuilder build_args, const Target& target,
                                                   const Workload& workload,
                                                   const std::vector<int>& cpus,
                                                   const std::filesystem::path& raw_report);

}  // namespace dfbench::drivers
