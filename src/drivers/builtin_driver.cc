#include "drivers/builtin_driver.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "core/files.h"
#include "drivers/load_report.h"

namespace dfbench::drivers {

std::vector<std::string> BuiltinDriver::BuildArgs(const std::string& binary, const Target& target,
                                                  const Workload& workload,
                                                  const std::string& report_path) {
  int threads = workload.threads, clients = workload.clients;
  if (workload.length == Workload::Length::kFill) {
    // The generator's P slices cover any range exactly; it only needs a key per connection.
    const uint64_t keys = workload.KeyCount();
    threads = static_cast<int>(std::min<uint64_t>(threads, keys));
    clients = static_cast<int>(std::min<uint64_t>(clients, keys / threads));
  }
  std::vector<std::string> args = {binary,       "loadgen",
                                   "--server",   target.address,
                                   "--port",     std::to_string(target.port),
                                   "--protocol", target.protocol,
                                   "--threads",  std::to_string(threads),
                                   "--clients",  std::to_string(clients),
                                   "--pipeline", std::to_string(workload.pipeline)};
  switch (workload.length) {
    case Workload::Length::kRequests:
      args.insert(args.end(), {"--requests", std::to_string(workload.RequestsPerClient())});
      break;
    case Workload::Length::kTestTime:
      args.insert(args.end(), {"--test-time", std::to_string(workload.test_time.count()) + "s"});
      break;
    case Workload::Length::kFill:
      args.insert(args.end(), {"--requests", "allkeys"});
      break;
  }
  const bool fill = workload.length == Workload::Length::kFill;
  if (!workload.command.empty()) {
    const KeyPattern pattern = fill ? KeyPattern::kParallel : workload.key_pattern;
    args.insert(args.end(), {"--command", workload.command, "--command-key-pattern",
                             std::string(1, static_cast<char>(pattern))});
  } else if (fill) {
    args.insert(args.end(), {"--ratio", "1:0", "--key-pattern", "P:P"});
  } else {
    args.insert(args.end(), {"--ratio", workload.ratio});
  }
  args.insert(args.end(), {"--data-size", std::to_string(workload.data_size)});
  if (workload.key_maximum > 0) {
    args.insert(args.end(), {"--key-minimum", std::to_string(workload.key_minimum), "--key-maximum",
                             std::to_string(workload.key_maximum)});
  }
  if (workload.distinct_client_seed) args.push_back("--distinct-client-seed");
  args.push_back("--json-out-file");
  args.push_back(report_path);
  return args;
}

core::Result<results::TrialResult> BuiltinDriver::Run(hosts::Host& client, const Target& target,
                                                      const Workload& workload,
                                                      const std::vector<int>& cpus,
                                                      const std::filesystem::path& raw_report) {
  if (workload.rate_per_connection != 0) {
    return core::Fail(core::ErrorKind::kUsage,
                      "the built-in load generator takes no per-connection rate");
  }
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
  // Generous: a pass is bounded by its length, and a stuck server must not hang forever.
  spec.timeout = std::chrono::hours(6);
  auto out = client.Run(spec);
  if (!out) return tl::unexpected(out.error());
  std::filesystem::path stdout_copy = raw_report;
  stdout_copy.replace_extension(".txt");
  if (auto st = core::WriteFileAtomic(stdout_copy, out->out); !st)
    return tl::unexpected(st.error());
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
