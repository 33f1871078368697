#include "loadgen/report_configuration.h"

#include <cmath>
#include <cstdio>

namespace dfbench::loadgen {
namespace {

using Json = nlohmann::ordered_json;

// What memtier writes for its options dfbench loadgen does not take yet: their values when not
// given, which is what such a run is. Each becomes the Config field when its option lands.
constexpr bool kDataVerify = false;   // --data-verify
constexpr bool kVerifyOnly = false;   // --verify-only
constexpr unsigned kMultiKeyGet = 0;  // --multi-key-get

// memtier's text settings: null when not set (its NULL), the text otherwise.
Json TextOrNull(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

// The --uri as given, its password (if any) replaced, as "authenticate" shows none.
std::string UriWithoutPassword(const std::string& uri) {
  const size_t scheme = uri.find("://");
  const size_t user_start = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t at = uri.find('@', user_start);
  if (at == std::string::npos) return uri;
  const size_t colon = uri.find(':', user_start);
  if (colon == std::string::npos || colon > at) return uri;
  return uri.substr(0, colon + 1) + "(set)" + uri.substr(at);
}

std::string Percentiles(const std::vector<double>& percentiles) {
  std::string s;
  for (double p : percentiles) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", p);
    if (!s.empty()) s += ',';
    s += buf;
  }
  return s;
}

// Connection, TLS and general settings, up to memtier's "threads".
void AddConnectionKeys(const Config& c, Json& j) {
  j["server"] = c.server;
  j["port"] = c.port;
  j["uri"] = UriWithoutPassword(c.uri);
  j["unix socket"] = TextOrNull(c.unix_socket);
  j["address family"] = AddressFamilyName(c.address_family);
  j["protocol"] = c.protocol == Protocol::kRedis && c.resp_version > 0
                      ? "resp" + std::to_string(c.resp_version)
                      : std::string(core::kProtocolNames.Name(c.protocol));
  j["out_file"] = TextOrNull(c.out_file);
  j["tls"] = MemtierBool(c.tls.enabled);
  j["cert"] = TextOrNull(c.tls.cert);
  j["key"] = TextOrNull(c.tls.key);
  j["cacert"] = TextOrNull(c.tls.cacert);
  j["tls_skip_verify"] = MemtierBool(c.tls.skip_verify);
  j["sni"] = TextOrNull(c.tls.sni);
  j["client_stats"] = c.client_stats.empty() ? Json(nullptr) : Json(c.client_stats);
  j["run_count"] = c.run_count;
  j["debug"] = c.debug ? 1 : 0;
  j["requests"] = c.by_time() ? 0 : c.RequestsForClient(0);
  j["rate_limit"] = c.rate_limit_per_connection;
  j["clients"] = c.load.clients;
  j["threads"] = c.load.threads;
}

// The load: time, ratio, values and keys.
void AddLoadKeys(const Config& c, Json& j) {
  const double test_time_s = static_cast<double>(c.pass.test_time.count()) / 1e6;
  if (test_time_s == std::floor(test_time_s)) {
    j["test_time"] = static_cast<int64_t>(test_time_s);
  } else {
    j["test_time"] = test_time_s;
  }
  j["ratio"] = c.load.ratio.ToString();
  j["pipeline"] = c.load.pipeline;
  j["data_size"] = c.load.data_size;
  j["data_offset"] = c.data_offset;
  j["random_data"] = MemtierBool(c.random_data);
  j["data_size_range"] = std::to_string(c.data_size_min) + ":" + std::to_string(c.data_size_max);
  j["data_size_list"] = DataSizeList(c.data_size_list);
  j["data_size_pattern"] = c.data_size_by_key ? "S" : "R";
  j["expiry_range"] = std::to_string(c.expiry_min_s) + ":" + std::to_string(c.expiry_max_s);
  j["data_import"] = TextOrNull(c.data_import);
  j["data_verify"] = MemtierBool(kDataVerify);
  j["verify_only"] = MemtierBool(kVerifyOnly);
  j["generate_keys"] = MemtierBool(c.generate_keys);
  j["key_prefix"] = c.load.key_prefix;
  j["key_minimum"] = c.load.key_minimum;
  j["key_maximum"] = c.load.key_maximum;
  j["key_pattern"] = c.KeyPatternString();
  j["key_stddev"] = c.KeyStddev();
  j["key_median"] = c.KeyMedian();
  j["key_zipf_exp"] = c.key_zipf_exp;
}

// Connections' life, the database and the options memtier lists last.
void AddSessionKeys(const Config& c, Json& j) {
  j["reconnect_interval"] = c.reconnect_interval;
  j["connection_timeout"] = c.connection_timeout_s;
  j["thread_conn_start_min_jitter_micros"] = c.conn_start_jitter_min_us;
  j["thread_conn_start_max_jitter_micros"] = c.conn_start_jitter_max_us;
  j["multi_key_get"] = kMultiKeyGet;
  // Never the password itself; the user is no secret.
  j["authenticate"] = c.password.empty() ? "" : c.user.empty() ? "(set)" : c.user + ":(set)";
  j["select-db"] = c.select_db;
  j["no-expiry"] = MemtierBool(c.no_expiry);
  // memtier's spellings: "A:B", and "min:max" for --num-slaves but "min-max" for --wait-timeout.
  j["wait-ratio"] = std::to_string(c.wait.sets) + ":" + std::to_string(c.wait.waits);
  j["num-slaves"] = std::to_string(c.wait.replicas_min) + ":" + std::to_string(c.wait.replicas_max);
  j["wait-timeout"] =
      std::to_string(c.wait.timeout_min_ms) + "-" + std::to_string(c.wait.timeout_max_ms);
  j["print-all-runs"] = MemtierBool(c.print_all_runs);
  // memtier writes these only for a staircase.
  if (c.clients_start > 0) {
    j["clients_start"] = c.clients_start;
    j["clients_step"] = c.clients_step;
    j["step_duration"] = c.step_duration_s;
  }
}

}  // namespace

std::string MemtierBool(bool b) {
  return b ? "true" : "false";
}

const char* AddressFamilyName(AddressFamily family) {
  switch (family) {
    case AddressFamily::kIpv4:
      return "AF_INET";
    case AddressFamily::kIpv6:
      return "AF_INET6";
    case AddressFamily::kAny:
      break;
  }
  return "Unspecified";
}

std::string DataSizeList(const std::vector<SizeWeight>& list) {
  std::string s;
  for (const SizeWeight& e : list) {
    if (!s.empty()) s += ',';
    s += std::to_string(e.size) + ":" + std::to_string(e.weight);
  }
  return s;
}

Json MemtierConfigurationJson(const Config& config) {
  Json j = Json::object();
  AddConnectionKeys(config, j);
  AddLoadKeys(config, j);
  AddSessionKeys(config, j);
  return j;
}

Json OwnConfigurationJson(const Config& c) {
  Json j = Json::object();
  j["all_keys"] = c.all_keys();
  j["rate"] = c.pass.rate_per_sec;
  j["warmup_time"] = static_cast<double>(c.pass.warmup_time.count()) / 1e6;
  j["distinct_client_seed"] = c.load.distinct_client_seed;
  j["randomize"] = c.randomize;
  j["reconnect"] = c.reconnect == ReconnectPolicy::kOn ? "on" : "off";
  j["print-percentiles"] = Percentiles(c.load.percentiles);
  Json cmds = Json::array();
  for (const auto& cmd : c.commands) {
    cmds.push_back({{"command", cmd.text},
                    {"ratio", cmd.ratio},
                    {"key_pattern", std::string(1, static_cast<char>(cmd.key_pattern))}});
  }
  j["commands"] = std::move(cmds);
  return j;
}

}  // namespace dfbench::loadgen
