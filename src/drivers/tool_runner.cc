#include "drivers/tool_runner.h"

#include <unistd.h>

#include <atomic>

#include "core/files.h"
#include "core/interrupt.h"
#include "core/log.h"

namespace dfbench::drivers {
namespace {

// What one attempt gave: a measurement, or why it did not (and whether trying again may help).
struct Attempt {
  core::Result<results::TrialResult> result;
  bool retryable = false;
};

Attempt RunOnce(hosts::Host& client, const ToolPass& pass, const std::string& remote_report,
                const std::filesystem::path& raw_report) {
  std::vector<std::string> argv = pass.argv;
  for (auto& arg : argv) {
    // The report path differs per attempt so a stale file is never read twice.
    if (auto pos = arg.find(pass.remote_report); pos != std::string::npos) {
      arg.replace(pos, pass.remote_report.size(), remote_report);
    }
  }
  auto out = RunKeepingStdout(client, argv, pass.cpus, pass.timeout, raw_report);
  if (!out) return {tl::unexpected(out.error()), false};
  if (core::InterruptRequested()) {
    return {core::Fail(core::ErrorKind::kInterrupted, pass.tool + " interrupted"), false};
  }
  if (!out->status.ok()) {
    return {core::Fail(core::ErrorKind::kFailure,
                       pass.tool + " failed (" + out->status.Describe() + ")"),
            true};
  }
  if (auto st = client.Fetch(remote_report, raw_report); !st) {
    return {core::Fail(core::ErrorKind::kFailure, pass.tool + " wrote no report"), true};
  }
  auto text = core::ReadFile(raw_report);
  if (!text) return {tl::unexpected(text.error()), false};
  if (text->find_first_not_of(" \t\r\n") == std::string::npos) {
    return {core::Fail(core::ErrorKind::kFailure, pass.tool + " wrote an empty report"), true};
  }
  std::filesystem::path stdout_copy = raw_report;
  stdout_copy.replace_extension(".txt");
  auto trial = pass.parse({.report = *text,
                           .stdout_text = out->out,
                           .report_path = raw_report.string(),
                           .stdout_path = stdout_copy.string()});
  if (!trial) return {core::Fail(core::ErrorKind::kFailure, trial.error().message), true};
  // Only error replies is a measurement (of a command the server refuses), not an empty pass.
  if (trial->ops == 0 && trial->errors == 0) {
    return {core::Fail(core::ErrorKind::kFailure, pass.tool + " reported zero operations"), true};
  }
  return {std::move(trial), false};
}

// The report path of attempt `n` (0 = the first): report.json, report-retry.json,
// report-retry2.json, ...
std::string AttemptReport(const std::string& report, int n) {
  if (n == 0) return report;
  std::string path = report;
  const size_t dot = path.rfind('.');
  path.insert(dot == std::string::npos ? path.size() : dot,
              n == 1 ? "-retry" : "-retry" + std::to_string(n));
  return path;
}

std::string DescribeRetries(int retries) {
  return retries == 1 ? "one retry" : std::to_string(retries) + " retries";
}

}  // namespace

core::Result<std::string> ResolveTool(hosts::Host& host, const std::string& explicit_path,
                                      const std::string& program,
                                      const std::string& how_to_provide) {
  if (!explicit_path.empty()) {
    if (auto found = host.Which(explicit_path)) return *found;
    return core::Fail(core::ErrorKind::kEnvironment, program + " not found at " + explicit_path +
                                                         " on the client host (" + how_to_provide +
                                                         ")");
  }
  if (auto found = host.Which(program)) return *found;
  return core::Fail(core::ErrorKind::kEnvironment,
                    program + " not found on the client host (" + how_to_provide + ")");
}

core::Result<std::string> ScratchReportPath(hosts::Host& host, const std::string& stem) {
  static std::atomic<int> sequence{0};
  auto work = host.WorkDir();
  if (!work) return tl::unexpected(work.error());
  return *work + "/" + stem + "-" + std::to_string(getpid()) + "-" + std::to_string(sequence++) +
         ".json";
}

core::Result<hosts::CommandOutput> RunKeepingStdout(
    hosts::Host& client, const std::vector<std::string>& argv, const std::vector<int>& cpus,
    std::chrono::milliseconds timeout, const std::filesystem::path& raw_report,
    const std::vector<std::pair<std::string, std::string>>& env) {
  hosts::CommandSpec spec{
      .argv = argv, .timeout = timeout, .cpus = cpus, .stream_stderr = true, .env = env};
  auto out = client.Run(spec);
  if (!out) return tl::unexpected(out.error());
  std::filesystem::path stdout_copy = raw_report;
  stdout_copy.replace_extension(".txt");
  if (auto st = core::WriteFileAtomic(stdout_copy, out->out); !st) {
    return tl::unexpected(st.error());
  }
  return out;
}

core::Result<results::TrialResult> RunToolPass(hosts::Host& client, const ToolPass& pass,
                                               const std::filesystem::path& raw_report) {
  Attempt attempt = RunOnce(client, pass, pass.remote_report, raw_report);
  for (int n = 1; n <= pass.retry.retries; ++n) {
    if (attempt.result || !attempt.retryable) return std::move(attempt.result);
    core::Notef("{}; retrying{}", attempt.result.error().message,
                pass.retry.retries == 1 ? " once" : "");
    if (!core::SleepUnlessInterrupted(pass.retry.pause)) {
      return core::Fail(core::ErrorKind::kInterrupted, pass.tool + " interrupted");
    }
    attempt = RunOnce(client, pass, AttemptReport(pass.remote_report, n), raw_report);
  }
  if (attempt.result || !attempt.retryable || pass.retry.retries == 0) {
    return std::move(attempt.result);
  }
  return core::Fail(core::ErrorKind::kFailure, attempt.result.error().message + " (after " +
                                                   DescribeRetries(pass.retry.retries) + ")");
}

ReportOptions ReportOptionsFor(const core::Pass& pass) {
  ReportOptions options;
  if (pass.length == core::Pass::Length::kTestTime) {
    options.test_time_sec = std::chrono::duration<double>(pass.test_time).count();
  }
  return options;
}

std::chrono::milliseconds PassTimeout(const core::Pass& pass) {
  if (pass.length == core::Pass::Length::kTestTime) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(pass.test_time) +
           std::chrono::minutes(10);
  }
  return std::chrono::hours(6);
}

}  // namespace dfbench::drivers
