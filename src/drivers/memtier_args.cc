#include "drivers/memtier_args.h"

namespace dfbench::drivers {

void AppendConnectionArgs(std::vector<std::string>& args, const Target& target, int threads,
                          int clients, int pipeline) {
  args.insert(args.end(), {"--server", target.address, "--port", std::to_string(target.port),
                           "--protocol", std::string(core::kProtocolNames.Name(target.protocol)),
                           "--threads", std::to_string(threads), "--clients",
                           std::to_string(clients), "--pipeline", std::to_string(pipeline)});
  // Each client then connects to every primary and routes by hash slot.
  if (target.cluster) args.emplace_back("--cluster-mode");
  // memtier's spellings, which `dfbench loadgen` shares; the password never goes here.
  const protocol::TlsOptions& tls = target.tls;
  if (tls.enabled) {
    args.emplace_back("--tls");
    for (const auto& [flag, value] : {std::pair{"--cert", &tls.cert},
                                      {"--key", &tls.key},
                                      {"--cacert", &tls.cacert},
                                      {"--sni", &tls.sni}}) {
      if (!value->empty()) args.insert(args.end(), {flag, *value});
    }
    if (tls.skip_verify) args.emplace_back("--tls-skip-verify");
  }
  if (!target.user.empty()) args.insert(args.end(), {"--user", target.user});
  if (target.db != 0) args.insert(args.end(), {"--select-db", std::to_string(target.db)});
}

void AppendLengthArgs(std::vector<std::string>& args, const core::Pass& pass,
                      const std::string& test_time, const std::string& fill_requests) {
  switch (pass.length) {
    case core::Pass::Length::kRequests:
      args.insert(args.end(), {"--requests", std::to_string(pass.requests_per_client)});
      break;
    case core::Pass::Length::kTestTime:
      args.insert(args.end(), {"--test-time", test_time});
      break;
    case core::Pass::Length::kFill:
      args.insert(args.end(), {"--requests", fill_requests});
      break;
  }
}

void AppendRequestArgs(std::vector<std::string>& args, const core::Load& load,
                       const core::Pass& pass) {
  const bool fill = pass.length == core::Pass::Length::kFill;
  if (!load.command.empty()) {
    const core::KeyPattern pattern = fill ? core::KeyPattern::kParallel : load.key_pattern;
    args.insert(args.end(), {"--command", load.command, "--command-key-pattern",
                             std::string(1, static_cast<char>(pattern))});
  } else if (fill) {
    args.insert(args.end(), {"--ratio", "1:0", "--key-pattern", "P:P"});
  } else {
    args.insert(args.end(), {"--ratio", load.ratio});
  }
  args.insert(args.end(), {"--data-size", std::to_string(load.data_size)});
  if (load.key_maximum > 0) {
    args.insert(args.end(), {"--key-minimum", std::to_string(load.key_minimum), "--key-maximum",
                             std::to_string(load.key_maximum)});
  }
  if (!load.key_prefix.empty()) args.insert(args.end(), {"--key-prefix", load.key_prefix});
  if (load.distinct_client_seed) args.emplace_back("--distinct-client-seed");
}

}  // namespace dfbench::drivers
