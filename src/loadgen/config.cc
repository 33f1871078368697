#include "loadgen/config.h"

#include <sys/socket.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <tuple>
#include <utility>

#include "core/load_limits.h"
#include "core/text.h"
#include "protocol/resp_encoder.h"

namespace dfbench::loadgen {
namespace {

using core::ErrorKind;
using core::Fail;

// memtier's refusals of --monitor-input and --scan-incremental-iteration (memtier_benchmark.cpp,
// main), with its reasons.
core::Status ValidateMonitorInput(const Config& c) {
  if (c.monitor_input.empty()) return core::Ok();
  if (c.protocol != Protocol::kRedis) {
    return Fail(ErrorKind::kUsage, "--monitor-input is only supported with Redis protocols");
  }
  if (c.cluster_mode) {
    return Fail(ErrorKind::kUsage, "--monitor-input is not supported in cluster mode");
  }
  if (c.monitor_commands.empty()) {
    return Fail(ErrorKind::kUsage, "--monitor-input: no commands found in " + c.monitor_input);
  }
  return core::Ok();
}

// Each --command: a template that compiles, or a placeholder naming a captured command.
core::Status ValidateCommands(const Config& c) {
  for (const auto& cmd : c.commands) {
    if (cmd.text.find_first_not_of(' ') == std::string::npos) {
      return Fail(ErrorKind::kUsage, "--command must not be empty");
    }
    if (cmd.ratio == 0) return Fail(ErrorKind::kUsage, "--command-ratio must be at least 1");
    auto monitor = ParseMonitorPlaceholder(cmd.text, c.monitor_commands.size());
    if (!monitor) return tl::unexpected(core::WithContext(monitor.error(), "--command"));
    if (monitor->kind != MonitorRef::Kind::kNone) continue;
    auto compiled = protocol::CommandTemplate::Compile(cmd.text);
    if (!compiled) return tl::unexpected(core::WithContext(compiled.error(), "--command"));
  }
  if (!c.commands.empty() && c.protocol != Protocol::kRedis) {
    return Fail(ErrorKind::kUsage, "--command is only supported with --protocol redis");
  }
  return core::Ok();
}

core::Status ValidateReplay(const Config& c) {
  if (auto st = ValidateMonitorInput(c); !st) return st;
  if (!c.scan_incremental) return core::Ok();
  constexpr const char* kFlag = "--scan-incremental-iteration";
  auto refuse = [&](const std::string& why) {
    return Fail(ErrorKind::kUsage, std::string(kFlag) + " " + why);
  };
  if (c.load.pipeline != 1) return refuse("requires --pipeline 1");
  if (c.commands.empty()) return refuse("requires --command with a SCAN command");
  if (c.cluster_mode) return refuse("is not supported in cluster mode");
  if (c.commands.size() != 1) return refuse("requires exactly one --command (a SCAN command)");
  auto scan = protocol::CommandTemplate::Compile(c.commands[0].text);
  if (!scan || core::AsciiUpper(scan->name()) != "SCAN") {
    return refuse("requires the command to be a SCAN command");
  }
  if (scan->arg_count() < 2) {
    return refuse("needs a SCAN with at least a cursor argument (e.g. 'SCAN 0')");
  }
  return core::Ok();
}

}  // namespace

bool Config::parallel_pattern() const {
  if (commands.empty()) {
    return set_pattern == core::KeyPattern::kParallel || get_pattern == core::KeyPattern::kParallel;
  }
  for (const auto& cmd : commands) {
    if (cmd.key_pattern == core::KeyPattern::kParallel) return true;
  }
  return false;
}

// One client interval, so that a tick carries about one request per client (the burst a closed
// loop at pipeline 1 offers all the time), and at most 2 ms: a wake-up per tick, not per request,
// is what keeps a fixed rate as cheap as memtier's 20 ms bursts while every request keeps a due
// time of its own. Each tick also wakes the idle server once; on a VM the two wake-ups cost the
// client tens of microseconds, so at 8,000 ops/s over 10 clients (a 1.25 ms interval) a 1 ms cap
// spent 11% more client CPU than one tick per interval
// (docs/commands/loadgen.md#the-open-loops-schedule).
int64_t Config::ScheduleTickNs() const {
  constexpr int64_t kMaxTickNs = 2'000'000;
  return std::clamp<int64_t>(static_cast<int64_t>(ClientIntervalNs()), 1, kMaxTickNs);
}

uint64_t Config::RequestsForClient(int global_client) const {
  if (!all_keys()) return pass.requests_per_client;
  if (parallel_pattern()) {
    return ParallelSlice(load.key_minimum, load.key_maximum, global_client, total_clients()).size();
  }
  return load.KeyCount();
}

double Config::KeyMedian() const {
  if (key_median > 0) return key_median;
  return static_cast<double>(load.key_minimum) + (static_cast<double>(load.KeyCount()) - 1) / 2.0;
}

double Config::KeyStddev() const {
  if (key_stddev > 0) return key_stddev;
  return std::max(static_cast<double>(load.KeyCount()) / 6.0, 1e-9);
}

std::string Config::KeyPatternString() const {
  if (commands.empty()) {
    return std::string{static_cast<char>(set_pattern), ':', static_cast<char>(get_pattern)};
  }
  std::string out;
  for (const auto& cmd : commands) {
    if (!out.empty()) out += ',';
    out += static_cast<char>(cmd.key_pattern);
  }
  return out;
}

KeySlice ParallelSlice(uint64_t key_min, uint64_t key_max, int global_client, int total_clients) {
  // Slices differ in size by at most one key and cover the range exactly once.
  const uint64_t range = key_max - key_min + 1;
  const uint64_t n = static_cast<uint64_t>(total_clients);
  const uint64_t i = static_cast<uint64_t>(global_client);
  const uint64_t base = range / n, extra = range % n;
  const uint64_t first = key_min + i * base + std::min(i, extra);
  const uint64_t size = base + (i < extra ? 1 : 0);
  return KeySlice{first, first + size - 1};
}

std::vector<std::vector<std::string>> Config::ConnectionSetup() const {
  std::vector<std::vector<std::string>> setup;
  if (resp_version > 0) {
    std::vector<std::string> hello = {"HELLO", std::to_string(resp_version)};
    if (!password.empty()) {
      hello.insert(hello.end(), {"AUTH", user.empty() ? "default" : user, password});
    }
    setup.push_back(std::move(hello));
  } else if (!password.empty()) {
    setup.push_back(user.empty() ? std::vector<std::string>{"AUTH", password}
                                 : std::vector<std::string>{"AUTH", user, password});
  }
  if (select_db != 0) setup.push_back({"SELECT", std::to_string(select_db)});
  return setup;
}

int Config::AiFamily() const {
  switch (address_family) {
    case AddressFamily::kIpv4:
      return AF_INET;
    case AddressFamily::kIpv6:
      return AF_INET6;
    case AddressFamily::kAny:
      break;
  }
  return AF_UNSPEC;
}

std::string Config::Where() const {
  return unix_socket.empty() ? server + ":" + std::to_string(port) : unix_socket;
}

namespace {

// memtier's refusals of WAIT traffic (memtier_benchmark.cpp, verify_cluster_option); memtier
// would abort on a memcache WAIT (protocol.cpp), so that is refused too.
core::Status ValidateWait(const Config& c) {
  if (c.wait.given() && c.cluster_mode) {
    return Fail(ErrorKind::kUsage,
                "--wait-ratio does not work with --cluster-mode (WAIT has no key to route by)");
  }
  if (c.wait.on() && c.protocol != Protocol::kRedis) {
    return Fail(ErrorKind::kUsage, "--wait-ratio needs --protocol redis: WAIT is a Redis command");
  }
  if (c.wait.replicas_min > c.wait.replicas_max || c.wait.timeout_min_ms > c.wait.timeout_max_ms) {
    return Fail(ErrorKind::kUsage, "--num-slaves and --wait-timeout need min <= max");
  }
  return core::Ok();
}

// The server's address, credentials and transport.
core::Status ValidateConnection(const Config& c) {
  if (c.server.empty()) return Fail(ErrorKind::kUsage, "--server must not be empty");
  if (c.port <= 0 || c.port > 65535) {
    return Fail(ErrorKind::kUsage, "--port must be in 1..65535");
  }
  if (!c.password.empty() && c.protocol != Protocol::kRedis) {
    return Fail(ErrorKind::kUsage, "--authenticate is only supported with --protocol redis");
  }
  if (!c.user.empty() && c.password.empty()) {
    return Fail(ErrorKind::kUsage, "--user " + c.user + " needs its password (-a)");
  }
  if (c.select_db < 0) return Fail(ErrorKind::kUsage, "--select-db must be 0 or more");
  if (c.select_db != 0 && c.protocol != Protocol::kRedis) {
    return Fail(ErrorKind::kUsage, "--select-db is only supported with --protocol redis");
  }
  if (c.select_db != 0 && c.cluster_mode) {
    return Fail(ErrorKind::kUsage, "--select-db: a Redis Cluster has database 0 only");
  }
  if (!c.unix_socket.empty() && c.cluster_mode) {
    return Fail(ErrorKind::kUsage, "--unix-socket does not work with --cluster-mode");
  }
  if (!c.unix_socket.empty() && c.tls.enabled) {
    return Fail(ErrorKind::kUsage, "--tls works over TCP only, not with --unix-socket");
  }
  if (!c.tls.enabled && (!c.tls.cert.empty() || !c.tls.key.empty() || !c.tls.cacert.empty() ||
                         !c.tls.sni.empty() || c.tls.skip_verify || c.tls.protocols != 0)) {
    return Fail(ErrorKind::kUsage,
                "--cert, --key, --cacert, --sni, --tls-skip-verify and --tls-protocols need --tls "
                "(or a rediss:// --uri)");
  }
  // memtier_benchmark.cpp, main's jitter check: the pauses between opening connections.
  if (c.conn_start_jitter_min_us > c.conn_start_jitter_max_us) {
    return Fail(ErrorKind::kUsage, "--thread-conn-start-min-jitter-micros (" +
                                       std::to_string(c.conn_start_jitter_min_us) +
                                       ") cannot be greater than "
                                       "--thread-conn-start-max-jitter-micros (" +
                                       std::to_string(c.conn_start_jitter_max_us) + ")");
  }
  return core::Ok();
}

// memtier's reconnect flags, and how they meet ours (--reconnect).
core::Status ValidateReconnects(const Config& c) {
  // memtier refuses it too (memtier_benchmark.cpp, verify_cluster_option): a cluster's
  // connections are reopened by its redirections.
  if (c.reconnect_interval > 0 && c.cluster_mode) {
    return Fail(ErrorKind::kUsage, "--reconnect-interval does not work with --cluster-mode");
  }
  if (c.reconnect_backoff_factor &&
      !(*c.reconnect_backoff_factor >= 0 && std::isfinite(*c.reconnect_backoff_factor))) {
    return Fail(ErrorKind::kUsage, "--reconnect-backoff-factor must be a number, 0 or more");
  }
  if (c.reconnect == ReconnectPolicy::kOff &&
      (c.max_reconnect_attempts || c.reconnect_backoff_factor)) {
    return Fail(ErrorKind::kUsage,
                "--max-reconnect-attempts and --reconnect-backoff-factor need reconnects, not "
                "--reconnect off");
  }
  return core::Ok();
}

// How long the run lasts and how it is paced.
core::Status ValidatePass(const core::Pass& p) {
  if (p.length == core::Pass::Length::kRequests && p.requests_per_client == 0) {
    return Fail(ErrorKind::kUsage, "--requests must be greater than 0");
  }
  if (p.length == core::Pass::Length::kTestTime && p.test_time.count() <= 0) {
    return Fail(ErrorKind::kUsage, "--test-time must be greater than 0");
  }
  if (p.rate_per_sec < 0) return Fail(ErrorKind::kUsage, "--rate must not be negative");
  if (p.rate_per_connection != 0) {
    return Fail(ErrorKind::kUsage, "a rate per connection is dfly_bench's; use --rate");
  }
  return core::Ok();
}

// memtier's checks of the client staircase (memtier_benchmark.cpp: after parsing, and main's
// after the defaults). Each step's duration is whole seconds, so the run must be by time.
core::Status ValidateStaircase(const Config& c) {
  const bool any = c.clients_start > 0 || c.clients_step > 0 || c.step_duration_s > 0;
  if (!any) return core::Ok();
  if (c.clients_start == 0 || c.clients_step == 0 || c.step_duration_s == 0) {
    return Fail(ErrorKind::kUsage,
                "--clients-start, --clients-step, and --step-duration must all be specified "
                "together");
  }
  if (c.clients_start >= static_cast<uint32_t>(c.load.clients)) {
    return Fail(ErrorKind::kUsage, "--clients-start (" + std::to_string(c.clients_start) +
                                       ") must be less than --clients (" +
                                       std::to_string(c.load.clients) + ")");
  }
  if (!c.by_time()) {
    return Fail(ErrorKind::kUsage, "--test-time is required when using client staircase mode");
  }
  return core::Ok();
}

// The value sizes: -d, --data-size-range, and --data-size-list beside the other sizes, as
// memtier's config checks it (memtier_benchmark.cpp).
core::Status ValidateValueShapes(const Config& c) {
  if (c.load.data_size <= 0) return Fail(ErrorKind::kUsage, "--data-size must be greater than 0");
  if (c.data_size_max > 0 && c.data_size_min > c.data_size_max) {
    return Fail(ErrorKind::kUsage, "--data-size-range minimum is greater than maximum");
  }
  if (c.data_size_list.empty()) return core::Ok();
  if (c.data_size_max > 0) {
    return Fail(ErrorKind::kUsage, "--data-size-list cannot be used with --data-size-range");
  }
  bool any_weight = false;
  for (const SizeWeight& entry : c.data_size_list) {
    if (entry.size > core::kDataSizeLimit.max) {
      return Fail(ErrorKind::kUsage, "--data-size-list sizes must be at most " +
                                         std::to_string(core::kDataSizeLimit.max));
    }
    any_weight = any_weight || entry.weight > 0;
  }
  if (!any_weight) return Fail(ErrorKind::kUsage, "--data-size-list needs a weight above 0");
  return core::Ok();
}

// memtier's checks of --data-offset (memtier_benchmark.cpp, main).
core::Status ValidateDataOffset(const Config& c) {
  if (c.data_offset == 0) return core::Ok();
  if (c.data_offset > kMaxDataOffset) {
    return Fail(ErrorKind::kUsage,
                "--data-offset too long (at most " + std::to_string(kMaxDataOffset) + ")");
  }
  if (c.protocol != Protocol::kRedis || c.expiry_max_s > 0) {
    return Fail(
        ErrorKind::kUsage,
        "--data-offset can only be used with --protocol redis, and not with --expiry-range");
  }
  return core::Ok();
}

}  // namespace

core::Status Validate(const Config& c) {
  if (auto st = ValidateConnection(c); !st) return st;
  for (const auto& [flag, value, limit] :
       {std::tuple{"--threads", c.load.threads, core::kThreadsLimit},
        std::tuple{"--clients", c.load.clients, core::kClientsLimit},
        std::tuple{"--pipeline", c.load.pipeline, core::kPipelineLimit}}) {
    if (value < limit.min || value > limit.max) {
      return Fail(ErrorKind::kUsage, std::string(flag) + " must be in " +
                                         std::to_string(limit.min) + ".." +
                                         std::to_string(limit.max));
    }
  }
  if (auto st = ValidatePass(c.pass); !st) return st;
  if (auto st = ValidateReconnects(c); !st) return st;
  if (auto st = ValidateStaircase(c); !st) return st;
  if (auto st = ValidateReplay(c); !st) return st;
  if (c.run_count < 1) return Fail(ErrorKind::kUsage, "--run-count must be greater than 0");
  if (auto st = ValidateValueShapes(c); !st) return st;
  if (auto st = ValidateDataOffset(c); !st) return st;
  if (c.load.key_minimum > c.load.key_maximum) {
    return Fail(ErrorKind::kUsage, "--key-minimum (" + std::to_string(c.load.key_minimum) +
                                       ") is greater than --key-maximum (" +
                                       std::to_string(c.load.key_maximum) + ")");
  }
  if (c.key_stddev < 0 || c.key_median < 0) {
    return Fail(ErrorKind::kUsage, "--key-stddev and --key-median must not be negative");
  }
  if (c.load.key_prefix.size() > 512) return Fail(ErrorKind::kUsage, "--key-prefix is too long");
  if (!c.load.command.empty()) {
    return Fail(ErrorKind::kUsage, "load.command is not read: the commands go in `commands`");
  }
  if (c.commands.empty() && c.load.ratio.set == 0 && c.load.ratio.get == 0) {
    return Fail(ErrorKind::kUsage, "--ratio: both sides are 0");
  }
  if (!(c.key_zipf_exp > 0 && c.key_zipf_exp <= 5)) {
    return Fail(ErrorKind::kUsage, "--key-zipf-exp must be in (0, 5]");
  }
  if (c.expiry_max_s > 0 && c.expiry_min_s > c.expiry_max_s) {
    return Fail(ErrorKind::kUsage, "--expiry-range minimum is greater than maximum");
  }
  if (c.cluster_mode && c.protocol != Protocol::kRedis) {
    return Fail(ErrorKind::kUsage, "--cluster-mode is only supported with --protocol redis");
  }
  if (auto st = ValidateCommands(c); !st) return st;
  if (auto st = ValidateWait(c); !st) return st;
  // P gives each client a slice; mixing it with patterns that roam the whole range would
  // make "-n allkeys" and the slices meaningless.
  if (c.parallel_pattern()) {
    bool all_parallel = true;
    if (c.commands.empty()) {
      all_parallel = c.set_pattern == core::KeyPattern::kParallel &&
                     c.get_pattern == core::KeyPattern::kParallel;
    } else {
      for (const auto& cmd : c.commands) {
        all_parallel = all_parallel && cmd.key_pattern == core::KeyPattern::kParallel;
      }
    }
    if (!all_parallel) {
      return Fail(ErrorKind::kUsage,
                  "key pattern P must be used for every command (P:P), not mixed with others");
    }
    if (c.load.KeyCount() < static_cast<uint64_t>(c.total_clients())) {
      return Fail(ErrorKind::kUsage, "key pattern P needs at least one key per client (range " +
                                         std::to_string(c.load.KeyCount()) + " < " +
                                         std::to_string(c.total_clients()) + " clients)");
    }
  }
  if (c.load.percentiles.empty()) return Fail(ErrorKind::kUsage, "--print-percentiles is empty");
  return core::Ok();
}

}  // namespace dfbench::loadgen
