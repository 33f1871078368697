#include "loadgen/config.h"

#include <charconv>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/load_limits.h"
#include "core/units.h"
#include "protocol/resp_encoder.h"
#include "protocol/server_url.h"

namespace dfbench::loadgen {
namespace {

using core::ErrorKind;
using core::Fail;

core::Error Usage(std::string message) {
  return core::Error{ErrorKind::kUsage, std::move(message)};
}

core::Result<core::KeyPattern> ParsePatternChar(char c) {
  switch (c) {
    case 'R':
    case 'S':
    case 'P':
    case 'G':
    case 'Z':
      return static_cast<core::KeyPattern>(c);
    default:
      return Fail(ErrorKind::kUsage,
                  std::string("unknown key pattern letter '") + c + "' (use R, S, P, G or Z)");
  }
}

// "R:R" -> set and get patterns.
core::Status ParseKeyPatternPair(std::string_view text, Config* c) {
  if (text.size() != 3 || (text[1] != ':' && text[1] != ',')) {
    return Fail(ErrorKind::kUsage, "invalid --key-pattern '" + std::string(text) +
                                       "' (expected two letters like R:R, S:S or P:P)");
  }
  auto set = ParsePatternChar(text[0]);
  if (!set) return tl::unexpected(set.error());
  auto get = ParsePatternChar(text[2]);
  if (!get) return tl::unexpected(get.error());
  c->set_pattern = *set;
  c->get_pattern = *get;
  return core::Ok();
}

// `parse(text)`, an error naming `flag`.
template <class Parse>
auto ParseFlag(Parse parse, const std::string& flag, const std::string& text) {
  auto value = parse(text);
  if (!value) return decltype(value)(tl::unexpected(core::WithContext(value.error(), flag)));
  return value;
}

// The same, and kUsage unless the value is above zero.
template <class Parse>
auto ParsePositiveFlag(Parse parse, const std::string& flag, const std::string& text) {
  auto value = ParseFlag(parse, flag, text);
  if (value && !(*value > std::remove_cvref_t<decltype(*value)>{})) {
    return decltype(value)(tl::unexpected(Usage(flag + " must be greater than 0")));
  }
  return value;
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

core::Result<core::KeyPattern> ParseKeyPatternLetter(std::string_view text) {
  if (text.size() != 1) {
    return Fail(ErrorKind::kUsage,
                "invalid key pattern '" + std::string(text) + "' (use one of R, S, P, G, Z)");
  }
  return ParsePatternChar(text[0]);
}

core::Result<std::vector<double>> ParsePercentiles(std::string_view text) {
  std::vector<double> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string item(text.substr(pos, comma - pos));
    char* end = nullptr;
    double v = item.empty() ? 0 : std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !(v > 0 && v <= 100)) {
      return Fail(ErrorKind::kUsage, "invalid --print-percentiles '" + std::string(text) +
                                         "' (expected values in (0, 100], e.g. 50,99,99.9)");
    }
    out.push_back(v);
    pos = comma + 1;
  }
  return out;
}

namespace {

// The value a flag's word stands for among `choices`; nullopt for any other word.
template <typename T>
std::optional<T> Choose(const std::string& word,
                        std::initializer_list<std::pair<const char*, T>> choices) {
  for (const auto& [name, value] : choices) {
    if (word == name) return value;
  }
  return std::nullopt;
}

// memtier's -a: "USER:PASS" for an ACL user, a leading ":" quotes a password with a colon;
// with --user, -a is the password whole.
void ParseCredentials(const Options& o, Config* c) {
  c->user = o.user;
  c->password = o.password;
  if (!o.user.empty() || o.password.empty()) return;
  const size_t colon = o.password.find(':');
  if (colon == 0) {
    c->password = o.password.substr(1);
  } else if (colon != std::string::npos) {
    c->user = o.password.substr(0, colon);
    c->password = o.password.substr(colon + 1);
  }
}

// memtier's --uri: where, whether TLS, and who; it takes precedence over -s, -p and -a.
core::Status ApplyUri(const std::string& uri, Config* c) {
  auto url = protocol::ParseServerUrl(uri);
  if (!url) return tl::unexpected(Usage("--uri: " + url.error().message));
  // As memtier's --uri: its /N is the database, over --select-db.
  if (url->db != 0) c->select_db = url->db;
  c->server = url->host;
  c->port = url->port;
  c->tls.enabled = c->tls.enabled || url->tls;
  if (!url->password.empty()) {
    c->user = url->user;
    c->password = url->password;
  }
  return core::Ok();
}

// Where and how to connect: server, protocol, threads, clients, pipeline.
core::Status ParseConnection(const Options& o, Config* c) {
  c->server = o.server;
  c->port = o.port;
  c->unix_socket = o.unix_socket;
  c->tls = o.tls;
  ParseCredentials(o, c);
  c->select_db = o.select_db;
  if (!o.uri.empty()) {
    if (auto st = ApplyUri(o.uri, c); !st) return st;
  }
  const auto protocol = Choose<std::pair<Protocol, int>>(
      o.protocol, {{"redis", {Protocol::kRedis, 0}},
                   {"resp2", {Protocol::kRedis, 2}},
                   {"resp3", {Protocol::kRedis, 3}},
                   {"memcache_text", {Protocol::kMemcacheText, 0}}});
  if (!protocol) {
    return tl::unexpected(Usage("unknown --protocol '" + o.protocol +
                                "' (use redis, resp2, resp3 or memcache_text)"));
  }
  c->protocol = protocol->first;
  c->resp_version = protocol->second;
  c->cluster_mode = o.cluster_mode;
  c->load.threads = o.threads;
  c->load.clients = o.clients;
  c->load.pipeline = o.pipeline;
  return core::Ok();
}

// How long a run lasts: --test-time, or --requests (a count or "allkeys").
core::Status ParseLength(const Options& o, Config* c) {
  if (!o.test_time.empty()) {
    auto d = ParsePositiveFlag(core::ParseDuration, "--test-time", o.test_time);
    if (!d) return tl::unexpected(d.error());
    c->pass = core::Pass::Time(*d);
  }
  if (!o.requests.empty()) {
    if (c->by_time()) {
      return tl::unexpected(Usage("--requests and --test-time are mutually exclusive"));
    }
    if (o.requests == "allkeys") {
      c->pass = core::Pass::Fill();
    } else {
      auto n = ParsePositiveFlag(core::ParseCount, "--requests", o.requests);
      if (!n) return tl::unexpected(n.error());
      c->pass.requests_per_client = *n;
    }
  }
  return core::Ok();
}

// Value sizes and expiry: --data-size, --data-size-range, --expiry-range.
core::Status ParseValueSizes(const Options& o, Config* c) {
  if (o.data_size <= 0) return tl::unexpected(Usage("--data-size must be greater than 0"));
  c->load.data_size = o.data_size;
  if (!o.data_size_range.empty()) {
    auto r = ParseFlag(core::ParseRange, "--data-size-range", o.data_size_range);
    if (!r) return tl::unexpected(r.error());
    if (r->min == 0) return tl::unexpected(Usage("--data-size-range minimum must be at least 1"));
    c->data_size_min = r->min;
    c->data_size_max = r->max;
  }
  if (!o.expiry_range.empty()) {
    auto r = ParseFlag(core::ParseRange, "--expiry-range", o.expiry_range);
    if (!r) return tl::unexpected(r.error());
    if (r->min == 0) {
      return tl::unexpected(Usage("--expiry-range minimum must be at least 1 second"));
    }
    c->expiry_min_s = r->min;
    c->expiry_max_s = r->max;
  }
  return core::Ok();
}

// The key range and its distributions' parameters, prefix and seeds.
core::Status ParseKeys(const Options& o, Config* c) {
  c->load.key_prefix = o.key_prefix;
  if (o.key_minimum < 0 || o.key_maximum < 0) {
    return tl::unexpected(Usage("--key-minimum and --key-maximum must not be negative"));
  }
  c->load.key_minimum = static_cast<uint64_t>(o.key_minimum);
  c->load.key_maximum = static_cast<uint64_t>(o.key_maximum);
  c->key_median = o.key_median;
  c->key_stddev = o.key_stddev;
  c->key_zipf_exp = o.key_zipf_exp;
  c->load.distinct_client_seed = o.distinct_client_seed;
  c->randomize = o.randomize;
  return core::Ok();
}

// What is sent: --command templates, or the SET:GET --ratio and --key-pattern.
core::Status ParseMix(const Options& o, Config* c) {
  c->commands = o.commands;
  if (!c->commands.empty()) {
    if (!o.ratio.empty()) {
      return tl::unexpected(
          Usage("--ratio cannot be combined with --command (use --command-ratio)"));
    }
    if (!o.key_pattern.empty()) {
      return tl::unexpected(
          Usage("--key-pattern cannot be combined with --command (use --command-key-pattern)"));
    }
  } else {
    if (!o.ratio.empty()) {
      auto r = ParseFlag(core::ParseRatio, "--ratio", o.ratio);
      if (!r) return tl::unexpected(r.error());
      c->load.ratio = *r;
    }
    if (!o.key_pattern.empty()) {
      auto st = ParseKeyPatternPair(o.key_pattern, c);
      if (!st) return tl::unexpected(st.error());
    }
  }
  return core::Ok();
}

// What the report holds: JSON file, percentiles, histogram.
core::Status ParseOutput(const Options& o, Config* c) {
  c->json_out_file = o.json_out_file;
  c->hdr_file_prefix = o.hdr_file_prefix;
  auto pct = ParsePercentiles(o.print_percentiles);
  if (!pct) return tl::unexpected(pct.error());
  c->load.percentiles = *pct;
  c->hide_histogram = o.hide_histogram;
  return core::Ok();
}

// Rate, warm-up, reconnects and the progress line.
core::Status ParsePacing(const Options& o, Config* c) {
  if (!o.rate.empty()) {
    auto r = ParsePositiveFlag(core::ParseCount, "--rate", o.rate);
    if (!r) return tl::unexpected(r.error());
    c->pass.rate_per_sec = static_cast<double>(*r);
  }
  c->pass.start_at_us = o.start_at_us;
  c->load.seed_client_base = o.seed_client_base;
  if (!o.warmup_time.empty()) {
    auto d = ParseFlag(core::ParseDuration, "--warmup-time", o.warmup_time);
    if (!d) return tl::unexpected(d.error());
    c->pass.warmup_time = *d;
  }
  const auto reconnect = Choose<ReconnectPolicy>(
      o.reconnect, {{"on", ReconnectPolicy::kOn}, {"off", ReconnectPolicy::kOff}});
  if (!reconnect) {
    return tl::unexpected(Usage("invalid --reconnect '" + o.reconnect + "' (use on or off)"));
  }
  c->reconnect = *reconnect;
  const auto progress = Choose<ProgressMode>(o.progress, {{"auto", ProgressMode::kAuto},
                                                          {"always", ProgressMode::kAlways},
                                                          {"never", ProgressMode::kNever}});
  if (!progress) {
    return tl::unexpected(
        Usage("invalid --progress '" + o.progress + "' (use auto, always or never)"));
  }
  c->progress = *progress;
  return core::Ok();
}

}  // namespace

core::Result<Config> ParseOptions(const Options& o) {
  if (!o.options_error.empty()) return tl::unexpected(Usage(o.options_error));
  Config c;
  for (auto step : {&ParseConnection, &ParseLength, &ParseValueSizes, &ParseKeys, &ParseMix,
                    &ParseOutput, &ParsePacing}) {
    if (auto st = step(o, &c); !st) return tl::unexpected(st.error());
  }
  if (auto st = Validate(c); !st) return tl::unexpected(st.error());
  return c;
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

std::string Config::Where() const {
  return unix_socket.empty() ? server + ":" + std::to_string(port) : unix_socket;
}

namespace {

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
                         !c.tls.sni.empty() || c.tls.skip_verify)) {
    return Fail(
        ErrorKind::kUsage,
        "--cert, --key, --cacert, --sni and --tls-skip-verify need --tls (or a rediss:// --uri)");
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
  if (c.load.data_size <= 0) return Fail(ErrorKind::kUsage, "--data-size must be greater than 0");
  if (c.data_size_max > 0 && c.data_size_min > c.data_size_max) {
    return Fail(ErrorKind::kUsage, "--data-size-range minimum is greater than maximum");
  }
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
  for (const auto& cmd : c.commands) {
    if (cmd.text.find_first_not_of(' ') == std::string::npos) {
      return Fail(ErrorKind::kUsage, "--command must not be empty");
    }
    if (cmd.ratio == 0) return Fail(ErrorKind::kUsage, "--command-ratio must be at least 1");
    auto compiled = protocol::CommandTemplate::Compile(cmd.text);
    if (!compiled) return tl::unexpected(core::WithContext(compiled.error(), "--command"));
  }
  if (!c.commands.empty() && c.protocol != Protocol::kRedis) {
    return Fail(ErrorKind::kUsage, "--command is only supported with --protocol redis");
  }
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
