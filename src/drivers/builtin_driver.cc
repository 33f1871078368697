#include "drivers/builtin_driver.h"

#include "core/files.h"
#include "drivers/load_report.h"
#include "drivers/memtier_args.h"
#include "drivers/tool_runner.h"
#include "protocol/server_endpoint.h"

namespace dfbench::drivers {

std::vector<std::pair<std::string, std::string>> BuiltinDriver::SecretEnv(const Target& target) {
  if (target.password.empty()) return {};
  return {{protocol::kPasswordEnv, target.password}};
}

std::vector<std::string> BuiltinDriver::BuildArgs(const std::string& binary, const Target& target,
                                                  const core::Load& load, const core::Pass& pass,
                                                  const std::string& report_path) {
  std::vector<std::string> args = {binary, "loadgen"};
  for (std::string& arg :
       MemtierStyleArgs(target, load, pass, MemtierDialect::kLoadgen, report_path)) {
    args.push_back(std::move(arg));
  }
  return args;
}

std::vector<std::string> BuiltinDriver::BuildBackgroundArgs(const std::string& binary,
                                                            const Target& target,
                                                            const core::Load& load,
                                                            const core::Pass& pass,
                                                            const std::string& report_path) {
  std::vector<std::string> args = BuildArgs(binary, target, load, pass, report_path);
  args.insert(args.end(), {"--progress", "never"});
  return args;
}

core::Result<results::TrialResult> BuiltinDriver::Run(hosts::Host& client, const Target& target,
                                                      const core::Load& load,
                                                      const core::Pass& pass,
                                                      const std::vector<int>& cpus,
                                                      const std::filesystem::path& raw_report) {
  if (pass.rate_per_connection != 0) {
    return core::Fail(core::ErrorKind::kUsage,
                      "the built-in load generator takes no per-connection rate");
  }
  auto binary = client.DfbenchBinary();
  if (!binary) return tl::unexpected(binary.error());
  auto remote_report = ScratchReportPath(client, "loadgen");
  if (!remote_report) return tl::unexpected(remote_report.error());
  // Generous: a pass is bounded by its length, and a stuck server must not hang forever.
  auto out = RunKeepingStdout(client, BuildArgs(*binary, target, load, pass, *remote_report), cpus,
                              std::chrono::hours(6), raw_report, SecretEnv(target));
  if (!out) return tl::unexpected(out.error());
  // The generator printed its own one-line reason on stderr already.
  const auto failed = [&] {
    const auto kind = out->status.code == 5     ? core::ErrorKind::kEnvironment
                      : out->status.code == 130 ? core::ErrorKind::kInterrupted
                                                : core::ErrorKind::kFailure;
    return core::Fail(kind, "load generator failed (" + out->status.Describe() + ")");
  };
  // Exit 5 after the load started: the server went away, and the report says when; the trial
  // is then a failed one with its figures, not a missing one.
  const bool may_have_report = out->status.code == 5;
  if (!out->status.ok() && !may_have_report) return failed();
  // Fetched beside it, then renamed: a reader never sees half a report.
  std::filesystem::path partial = raw_report;
  partial += ".part";
  if (auto st = client.Fetch(*remote_report, partial); !st) {
    if (!out->status.ok()) return failed();
    return tl::unexpected(st.error());
  }
  std::error_code ec;
  std::filesystem::rename(partial, raw_report, ec);
  if (ec) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot rename " + partial.string() + ": " + ec.message());
  }
  auto text = core::ReadFile(raw_report);
  if (!text) return tl::unexpected(text.error());
  auto trial = ParseLoadReport(*text);
  if (!out->status.ok() && (!trial || trial->ended_early.empty())) return failed();
  if (!trial) {
    return core::Fail(core::ErrorKind::kFailure,
                      raw_report.string() + ": " + trial.error().message);
  }
  return trial;
}

}  // namespace dfbench::drivers
