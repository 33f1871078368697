#include "drivers/memtier_args.h"

#include <fmt/ranges.h>

#include <algorithm>

#include "core/format.h"
#include "drivers/tool_flags.h"

namespace dfbench::drivers {
namespace {

// The connections of a pass: a fill's are cut to what its key range can share out.
Layout PassConnections(const core::Load& load, const core::Pass& pass, MemtierDialect dialect) {
  if (pass.length != core::Pass::Length::kFill) return {load.threads, load.clients};
  const uint64_t keys = load.KeyCount();
  if (dialect == MemtierDialect::kMemtier) {
    return ExactFillLayout(keys, load.threads, load.clients);
  }
  // The generator's P slices cover any range exactly; it only needs a key per connection.
  const int threads = static_cast<int>(std::min<uint64_t>(load.threads, keys));
  return {threads, static_cast<int>(std::min<uint64_t>(load.clients, keys / threads))};
}

void AppendConnectionArgs(std::vector<std::string>& args, const Target& target,
                          const Layout& connections, int pipeline) {
  args.insert(args.end(),
              {"--server", target.address, "--port", std::to_string(target.port), "--protocol",
               std::string(core::kProtocolNames.Name(target.protocol)), "--threads",
               std::to_string(connections.threads), "--clients",
               std::to_string(connections.clients), "--pipeline", std::to_string(pipeline)});
  // Each client then connects to every primary and routes by hash slot.
  if (target.cluster) args.emplace_back("--cluster-mode");
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

void AppendLengthArgs(std::vector<std::string>& args, const core::Load& load,
                      const core::Pass& pass, const Layout& connections, MemtierDialect dialect) {
  const bool memtier = dialect == MemtierDialect::kMemtier;
  switch (pass.length) {
    case core::Pass::Length::kRequests:
      args.insert(args.end(), {"--requests", std::to_string(pass.requests_per_client)});
      break;
    case core::Pass::Length::kTestTime: {
      const std::string seconds = std::to_string(core::WholeSeconds(pass.test_time));
      args.insert(args.end(), {"--test-time", memtier ? seconds : seconds + "s"});
      break;
    }
    case core::Pass::Length::kFill: {
      // memtier: each connection sends exactly its slice of the range.
      const uint64_t per_connection =
          load.KeyCount() / (static_cast<uint64_t>(connections.threads) * connections.clients);
      args.insert(args.end(), {"--requests", memtier ? std::to_string(per_connection) : "allkeys"});
      break;
    }
  }
}

void AppendRequestArgs(std::vector<std::string>& args, const core::Load& load,
                       const core::Pass& pass) {
  const bool fill = pass.length == core::Pass::Length::kFill;
  core::Load sent = load;
  if (fill) sent.ratio = core::kSetsOnly;  // a fill only writes
  AppendSentFlag(args, FlagSpelling::kMemtier, sent);
  if (!load.command.empty()) {
    args.insert(args.end(),
                {"--command-key-pattern",
                 MemtierKeyPattern(fill ? core::KeyPattern::kParallel : load.key_pattern)});
  } else if (fill) {
    const std::string p = MemtierKeyPattern(core::KeyPattern::kParallel);
    args.insert(args.end(), {"--key-pattern", p + ":" + p});
  }
  args.insert(args.end(), {"--data-size", std::to_string(load.data_size)});
  AppendKeyRangeFlags(args, FlagSpelling::kMemtier, load);
  if (load.distinct_client_seed) args.emplace_back("--distinct-client-seed");
}

// StatsD as both generators take it (memtier's flags), and the built-in one's Prometheus
// endpoint, under the pass's run label. The prefix stays memtier's default.
void AppendLiveMetricsArgs(std::vector<std::string>& args, const core::LiveMetrics& metrics,
                           MemtierDialect dialect) {
  if (!metrics.Enabled()) return;
  if (!metrics.statsd_host.empty()) {
    args.insert(args.end(), {"--statsd-host", metrics.statsd_host, "--statsd-port",
                             std::to_string(metrics.statsd_port)});
  }
  if (dialect == MemtierDialect::kLoadgen && metrics.prometheus_port > 0) {
    args.insert(args.end(), {"--prometheus-port", std::to_string(metrics.prometheus_port)});
  }
  if (!metrics.run_label.empty()) {
    args.insert(args.end(), {"--statsd-run-label", metrics.run_label});
  }
}

// What only `dfbench loadgen` takes.
void AppendLoadgenArgs(std::vector<std::string>& args, const core::Load& load,
                       const core::Pass& pass) {
  // A benchmark's operations are the requests that succeeded; the failed ones are judged apart
  // (--max-error-pct). loadgen counts error replies as operations too by default, as memtier.
  args.insert(args.end(), {"--error-replies", "apart"});
  if (pass.rate_per_sec > 0) {
    args.insert(args.end(), {"--rate", core::Format("{}", pass.rate_per_sec)});
  }
  if (pass.warmup_time.count() > 0) {
    args.insert(args.end(),
                {"--warmup-time", core::Format("{}ms", core::WholeMilliseconds(pass.warmup_time))});
  }
  if (pass.start_at_us > 0) {
    args.insert(args.end(), {"--start-at", std::to_string(pass.start_at_us)});
  }
  if (load.seed_client_base > 0) {
    args.insert(args.end(), {"--seed-client-base", std::to_string(load.seed_client_base)});
  }
  if (!load.percentiles.empty()) {
    args.insert(args.end(),
                {"--print-percentiles", core::Format("{}", fmt::join(load.percentiles, ","))});
  }
}

}  // namespace

std::vector<std::string> MemtierStyleArgs(const Target& target, const core::Load& asked,
                                          const core::Pass& pass, MemtierDialect dialect,
                                          const std::string& report_path) {
  const core::Load load = InNamespace(target, asked, "memtier-");
  const Layout connections = PassConnections(load, pass, dialect);
  std::vector<std::string> args;
  AppendConnectionArgs(args, target, connections, load.pipeline);
  AppendLengthArgs(args, load, pass, connections, dialect);
  AppendRequestArgs(args, load, pass);
  if (dialect == MemtierDialect::kLoadgen) {
    AppendLoadgenArgs(args, load, pass);
  } else {
    args.insert(args.end(), {"--print-percentiles", "50,99,99.9"});
  }
  AppendLiveMetricsArgs(args, pass.live_metrics, dialect);
  args.insert(args.end(), {"--json-out-file", report_path});
  return args;
}

}  // namespace dfbench::drivers
