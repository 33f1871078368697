#include "drivers/memtier_args.h"

namespace dfbench::drivers {

void AppendConnectionArgs(std::vector<std::string>& args, const Target& target, int threads,
                          int clients, int pipeline) {
  args.insert(args.end(),
              {"--server", target.address, "--port", std::to_string(target.port), "--protocol",
               target.protocol, "--threads", std::to_string(threads), "--clients",
               std::to_string(clients), "--pipeline", std::to_string(pipeline)});
}

void AppendLengthArgs(std::vector<std::string>& args, const Workload& workload,
                      const std::string& test_time, const std::string& fill_requests) {
  switch (workload.length) {
    case Workload::Length::kRequests:
      args.insert(args.end(), {"--requests", std::to_string(workload.RequestsPerClient())});
      break;
    case Workload::Length::kTestTime:
      args.insert(args.end(), {"--test-time", test_time});
      break;
    case Workload::Length::kFill:
      args.insert(args.end(), {"--requests", fill_requests});
      break;
  }
}

void AppendRequestArgs(std::vector<std::string>& args, const Workload& workload) {
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
  if (!workload.key_prefix.empty()) args.insert(args.end(), {"--key-prefix", workload.key_prefix});
  if (workload.distinct_client_seed) args.emplace_back("--distinct-client-seed");
}

}  // namespace dfbench::drivers
