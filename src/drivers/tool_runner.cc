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
  hosts::CommandSpec spec{
      .argv = argv, .timeout = pass.timeout, .cpus = pass.cpus, .stream_stderr = true};
  auto out = client.Run(spec);
  if (!out) return {tl::unexpected(out.error()), false};
  std::filesystem::path stdout_copy = raw_report;
  stdout_copy.replace_extension(".txt");
  if (auto st = core::WriteFileAtomic(stdout_copy, out->out); !st) {
    return {tl::unexpected(st.error()), false};
  }
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
  auto trial = pass.parse(*text);
  if (!trial) {
    return {
        core::Fail(core::ErrorKind::kFailure, raw_report.string() + ": " + trial.error().message),
        true};
  }
  if (trial->ops == 0) {
    return {core::Fail(core::ErrorKind::kFailure, pass.tool + " reported zero operations"), true};
  }
  return {std::move(trial), false};
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

core::Result<results::TrialResult> RunToolPass(hosts::Host& client, const ToolPass& pass,
                                               const std::filesystem::path& raw_report) {
  Attempt first = RunOnce(client, pass, pass.remote_report, raw_report);
  if (first.result || !first.retryable) return std::move(first.result);
  core::Notef("{}; retrying once", first.result.error().message);
  if (!core::SleepUnlessInterrupted(std::chrono::milliseconds(500))) {
    return core::Fail(core::ErrorKind::kInterrupted, pass.tool + " interrupted");
  }
  std::string second_report = pass.remote_report;
  const size_t dot = second_report.rfind('.');
  second_report.insert(dot == std::string::npos ? second_report.size() : dot, "-retry");
  Attempt second = RunOnce(client, pass, second_report, raw_report);
  if (second.result) return std::move(second.result);
  if (!second.retryable) return std::move(second.result);
  return core::Fail(core::ErrorKind::kFailure,
                    second.result.error().message + " (after one retry)");
}

ReportOptions ReportOptionsFor(const Workload& workload) {
  ReportOptions options;
  if (workload.length == Workload::Length::kTestTime) {
    options.test_time_sec = static_cast<double>(workload.test_time.count());
  }
  return options;
}

core::Result<results::TrialResult> RunToolWorkload(hosts::Host& client, const std::string& tool,
                                                   const std::string& binary,
                                                   ToolArgsBuilder build_args, const Target& target,
                                                   const Workload& workload,
                                                   const std::vector<int>& cpus,
                                                   const std::filesystem::path& raw_report) {
  // The tools' JSON writers may seek back over what they wrote: the report must be a regular
  // file, never a pipe.
  auto report = ScratchReportPath(client, tool);
  if (!report) return tl::unexpected(report.error());
  auto args = build_args(binary, target, workload, *report);
  if (!args) return tl::unexpected(args.error());
  ToolPass pass{.tool = tool, .argv = std::move(*args), .remote_report = *report, .cpus = cpus};
  if (workload.length == Workload::Length::kTestTime) {
    pass.timeout = workload.test_time + std::chrono::minutes(10);
  }
  const ReportOptions options = ReportOptionsFor(workload);
  pass.parse = [options](const std::string& text) { return ParseLoadReport(text, options); };
  return RunToolPass(client, pass, raw_report);
}

}  // namespace dfbench::drivers
