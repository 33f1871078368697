#include "drivers/memtier_driver.h"

#include "drivers/load_report.h"
#include "drivers/tool_runner.h"

namespace dfbench::drivers {
namespace {

constexpr const char* kProgram = "memtier_benchmark";
constexpr const char* kHowToProvide = "install it or pass --memtier-binary PATH";

}  // namespace

core::Status MemtierDriver::Prepare(hosts::Host& client) {
  auto found = ResolveTool(client, binary_, kProgram, kHowToProvide);
  if (!found) return tl::unexpected(found.error());
  resolved_ = *found;
  return core::Ok();
}

core::Result<std::vector<std::string>> MemtierDriver::BuildArgs(const std::string& binary,
                                                                const Target& target,
                                                                const Workload& workload,
                                                                const std::string& report_path) {
  if (workload.rate_per_connection != 0) {
    return core::Fail(core::ErrorKind::kUsage, "memtier_benchmark takes no dfly_bench-style rate");
  }
  const bool fill = workload.length == Workload::Length::kFill;
  if (fill && workload.command.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "a memtier_benchmark fill needs a command");
  }
  int threads = workload.threads, clients = workload.clients;
  if (fill) {
    const Layout layout = ExactFillLayout(workload.KeyCount(), threads, clients);
    threads = layout.threads;
    clients = layout.clients;
  }
  std::vector<std::string> args = {binary,
                                   "--server",
                                   target.address,
                                   "--port",
                                   std::to_string(target.port),
                                   "--protocol",
                                   target.protocol,
                                   "--threads",
                                   std::to_string(threads),
                                   "--clients",
                                   std::to_string(clients),
                                   "--pipeline",
                                   std::to_string(workload.pipeline)};
  switch (workload.length) {
    case Workload::Length::kRequests:
      args.insert(args.end(), {"--requests", std::to_string(workload.RequestsPerClient())});
      break;
    case Workload::Length::kTestTime:
      args.insert(args.end(), {"--test-time", std::to_string(workload.test_time.count())});
      break;
    case Workload::Length::kFill: {
      const uint64_t connections = static_cast<uint64_t>(threads) * clients;
      args.insert(args.end(), {"--requests", std::to_string(workload.KeyCount() / connections)});
      break;
    }
  }
  if (!workload.command.empty()) {
    const KeyPattern pattern = fill ? KeyPattern::kParallel : workload.key_pattern;
    args.insert(args.end(), {"--command", workload.command, "--command-key-pattern",
                             std::string(1, static_cast<char>(pattern))});
  } else {
    args.insert(args.end(), {"--ratio", workload.ratio});
  }
  args.insert(args.end(), {"--data-size", std::to_string(workload.data_size)});
  if (workload.key_maximum > 0) {
    args.insert(args.end(), {"--key-minimum", std::to_string(workload.key_minimum), "--key-maximum",
                             std::to_string(workload.key_maximum)});
  }
  if (workload.distinct_client_seed) args.push_back("--distinct-client-seed");
  args.insert(args.end(), {"--print-percentiles", "50,99,99.9", "--json-out-file", report_path});
  return args;
}

core::Result<results::TrialResult> MemtierDriver::ParseReport(const std::string& json_text,
                                                              const Workload& workload) {
  return ParseLoadReport(json_text, ReportOptionsFor(workload));
}

core::Result<results::TrialResult> MemtierDriver::Run(hosts::Host& client, const Target& target,
                                                      const Workload& workload,
                                                      const std::vector<int>& cpus,
                                                      const std::filesystem::path& raw_report) {
  if (resolved_.empty()) {
    if (auto st = Prepare(client); !st) return tl::unexpected(st.error());
  }
  return RunToolWorkload(client, kProgram, resolved_, &BuildArgs, target, workload, cpus,
                         raw_report);
}

}  // namespace dfbench::drivers
