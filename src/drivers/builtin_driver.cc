#include "drivers/builtin_driver.h"

#include <unistd.h>

#include <atomic>

#include "core/files.h"
#include "drivers/load_report.h"

namespace dfbench::drivers {

uint64_t Workload::RequestsPerClient() const {
  const uint64_t connections = static_cast<uint64_t>(threads) * static_cast<uint64_t>(clients);
  if (connections == 0) return 0;
  return (total_requests + connections - 1) / connections;
}

std::vector<std::string> BuiltinDriver::BuildArgs(const std::string& binary, const Target& target,
                                                  const Workload& workload,
                                                  const std::string& report_path) {
  std::vector<std::string> args = {binary,        "loadgen",
                                   "--server",    target.address,
                                   "--port",      std::to_string(target.port),
                                   "--protocol",  target.protocol,
                                   "--threads",   std::to_string(workload.threads),
                                   "--clients",   std::to_string(workload.clients),
                                   "--pipeline",  std::to_string(workload.pipeline),
                                   "--requests",  std::to_string(workload.RequestsPerClient()),
                                   "--ratio",     workload.ratio,
                                   "--data-size", std::to_string(workload.data_size)};
  if (workload.distinct_client_seed) args.push_back("--distinct-client-seed");
  args.push_back("--json-out-file");
  args.push_back(report_path);
  return args;
}

core::Result<results::TrialResult> BuiltinDriver::Run(hosts::Host& client, const Target& target,
                                                      const Workload& workload,
                                                      const std::vector<int>& cpus,
                                                      const std::filesystem::path& raw_report) {
  static std::atomic<int> sequence{0};
  auto binary = client.DfbenchBinary();
  if (!binary) return tl::unexpected(binary.error());
  auto work = client.WorkDir();
  if (!work) return tl::unexpected(work.error());
  const std::string remote_report =
      *work + "/loadgen-" + std::to_string(getpid()) + "-" + std::to_string(sequence++) + ".json";
  hosts::CommandSpec spec;
  spec.argv = BuildArgs(*binary, target, workload, remote_report);
  spec.cpus = cpus;
  spec.stream_stderr = true;
  // Generous: a trial is bounded by its request count, and a stuck server must not hang forever.
  spec.timeout = std::chrono::hours(6);
  auto out = client.Run(spec);
  if (!out) return tl::unexpected(out.error());
  if (!out->status.ok()) {
    // The generator printed its own one-line reason on stderr already.
    const auto kind = out->status.code == 5     ? core::ErrorKind::kEnvironment
                      : out->status.code == 130 ? core::ErrorKind::kInterrupted
                                                : core::ErrorKind::kFailure;
    return core::Fail(kind, "load generator failed (" + out->status.Describe() + ")");
  }
  if (auto st = client.Fetch(remote_report, raw_report); !st) return tl::unexpected(st.error());
  auto text = core::ReadFile(raw_report);
  if (!text) return tl::unexpected(text.error());
  auto trial = ParseLoadReport(*text);
  if (!trial) {
    return core::Fail(core::ErrorKind::kFailure,
                      raw_report.string() + ": " + trial.error().message);
  }
  return trial;
}

}  // namespace dfbench::drivers
