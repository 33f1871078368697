// Running a load generator on the client host: a scratch report path in the host's work
// directory, one run with its stdout kept beside the raw report, and for the external tools
// (memtier_benchmark, dfly_bench) their binary lookup and a retry when a pass comes back empty
// (these tools occasionally produce no report, or zero operations, on a first attempt).
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
// The generators' JSON writers may seek back over what they wrote: the report must be a
// regular file, never a pipe.
core::Result<std::string> ScratchReportPath(hosts::Host& host, const std::string& stem);

// Runs `argv` on `client` (pinned to `cpus` when not empty, its stderr streamed to ours) and
// keeps its stdout beside `raw_report` on this machine (same name, .txt). A non-zero exit is
// not an error here: inspect the status.
core::Result<hosts::CommandOutput> RunKeepingStdout(
    hosts::Host& client, const std::vector<std::string>& argv, const std::vector<int>& cpus,
    std::chrono::milliseconds timeout, const std::filesystem::path& raw_report,
    const std::vector<std::pair<std::string, std::string>>& env = {});

// What one pass of an external tool left: its JSON report and its stdout, with the paths both are
// kept at on this machine (for messages; empty when they were never written to a file).
struct ToolOutput {
  std::string report;
  std::string stdout_text;
  std::string report_path;
  std::string stdout_path;
};

// How often a pass that came back empty is run again.
struct RetryPolicy {
  int retries = 1;  // extra attempts after a failed run, no or an empty report, zero operations
  std::chrono::milliseconds pause{500};
};

// One pass of an external tool.
struct ToolPass {
  std::string tool;  // for messages: "memtier_benchmark"
  std::vector<std::string> argv;
  std::string remote_report;  // where the tool writes its JSON on the host (a regular file)
  std::vector<int> cpus;
  std::chrono::milliseconds timeout = std::chrono::hours(6);
  RetryPolicy retry;
  // Reads what the pass left (kUsage when malformed, the message naming the file).
  std::function<core::Result<results::TrialResult>(const ToolOutput& output)> parse;
};

// Runs the pass, copies the report to `raw_report` and the tool's stdout beside it (same name,
// .txt), and parses both. A pass that fails, leaves no or a malformed report, or reports neither
// operations nor errors is retried (pass.retry) after a short pause, with a line on stderr; a last
// failure is kFailure naming the reason ("... (after one retry)"). kInterrupted on SIGINT/SIGTERM
// (never retried).
core::Result<results::TrialResult> RunToolPass(hosts::Host& client, const ToolPass& pass,
                                               const std::filesystem::path& raw_report);

// How to read a report of `pass`: time-boxed passes take Count over the test
// time rather than the tool's own duration.
ReportOptions ReportOptionsFor(const core::Pass& pass);

// How long `pass` may take: generous, since a pass is bounded by its length,
// but a stuck server must not hang the run forever.
std::chrono::milliseconds PassTimeout(const core::Pass& pass);

}  // namespace dfbench::drivers
