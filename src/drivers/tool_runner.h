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

}  // namespace dfbench::drivers
