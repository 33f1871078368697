#include "cli/loadgen/loadgen_options.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "cli/loadgen/loadgen_outputs.h"
#include "cli/loadgen/wait_flags.h"
#include "core/text.h"
#include "core/units.h"
#include "loadgen/monitor_input.h"
#include "protocol/server_url.h"
#include "protocol/tls.h"

namespace dfbench::cli {
namespace {

using core::ErrorKind;
using core::Fail;
using loadgen::Config;
using loadgen::Protocol;

tl::unexpected<core::Error> LoadgenUsage(std::string message) {
  return Fail(ErrorKind::kUsage, std::move(message));
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
      return LoadgenUsage(std::string("unknown key pattern letter '") + c +
                          "' (use R, S, P, G or Z)");
  }
}

// "R:R" -> set and get patterns.
core::Status ParseKeyPatternPair(std::string_view text, Config* c) {
  if (text.size() != 3 || (text[1] != ':' && text[1] != ',')) {
    return LoadgenUsage("invalid --key-pattern '" + std::string(text) +
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
    return decltype(value)(LoadgenUsage(flag + " must be greater than 0"));
  }
  return value;
}

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
void ParseCredentials(const std::string& authenticate, Config* c) {
  c->password = authenticate;
  if (!c->user.empty() || authenticate.empty()) return;
  const size_t colon = authenticate.find(':');
  if (colon == 0) {
    c->password = authenticate.substr(1);
  } else if (colon != std::string::npos) {
    c->user = authenticate.substr(0, colon);
    c->password = authenticate.substr(colon + 1);
  }
}

// memtier's --uri: where, whether TLS, and who; it takes precedence over -s, -p and -a.
core::Status ApplyUri(const std::string& uri, Config* c) {
  auto url = protocol::ParseServerUrl(uri);
  if (!url) return LoadgenUsage("--uri: " + url.error().message);
  c->uri = uri;
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

// memtier's --tls-protocols: a comma list of TLSv1, TLSv1.1, TLSv1.2 and TLSv1.3, in any case
// (memtier_benchmark.cpp, o_tls_protocols); empty items are skipped, as strtok skips them.
core::Result<unsigned> ParseTlsProtocols(const std::string& text) {
  unsigned protocols = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(pos, comma - pos);
    for (char& ch : item) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    pos = comma + 1;
    if (item.empty()) continue;
    const auto version = Choose<unsigned>(item, {{"tlsv1", protocol::kTlsV1},
                                                 {"tlsv1.1", protocol::kTlsV1_1},
                                                 {"tlsv1.2", protocol::kTlsV1_2},
                                                 {"tlsv1.3", protocol::kTlsV1_3}});
    if (!version) {
      return LoadgenUsage("invalid --tls-protocols '" + text +
                          "' (use a combination of TLSv1, TLSv1.1, TLSv1.2 and TLSv1.3)");
    }
    protocols |= *version;
  }
  return protocols;
}

// Who connects and how: credentials, --uri and --protocol.
core::Status ParseConnection(const LoadgenOptions& o, Config* c) {
  ParseCredentials(o.password, c);
  if (!o.uri.empty()) {
    if (auto st = ApplyUri(o.uri, c); !st) return st;
  }
  const auto protocol = Choose<std::pair<Protocol, int>>(
      o.protocol, {{"redis", {Protocol::kRedis, 0}},
                   {"resp2", {Protocol::kRedis, 2}},
                   {"resp3", {Protocol::kRedis, 3}},
                   {"memcache_text", {Protocol::kMemcacheText, 0}}});
  if (!protocol) {
    return LoadgenUsage("unknown --protocol '" + o.protocol +
                        "' (use redis, resp2, resp3 or memcache_text)");
  }
  c->protocol = protocol->first;
  c->resp_version = protocol->second;
  if (!o.tls_protocols.empty()) {
    auto versions = ParseTlsProtocols(o.tls_protocols);
    if (!versions) return tl::unexpected(versions.error());
    c->tls.protocols = *versions;
  }
  return core::Ok();
}

// `length` as the run's pass, keeping the --start-at given beside it.
void SetLength(core::Pass length, core::Pass* pass) {
  length.start_at_us = pass->start_at_us;
  *pass = length;
}

// How long a run lasts: --test-time, or --requests (a count or "allkeys").
core::Status ParseLength(const LoadgenOptions& o, Config* c) {
  if (!o.test_time.empty()) {
    auto d = ParsePositiveFlag(core::ParseDuration, "--test-time", o.test_time);
    if (!d) return tl::unexpected(d.error());
    SetLength(core::Pass::Time(*d), &c->pass);
  }
  if (!o.requests.empty()) {
    if (c->by_time()) return LoadgenUsage("--requests and --test-time are mutually exclusive");
    if (c->clients_start > 0) {
      return LoadgenUsage(
          "--requests cannot be used with client staircase mode: use --test-time instead");
    }
    if (o.requests == "allkeys") {
      SetLength(core::Pass::Fill(), &c->pass);
    } else {
      auto n = ParsePositiveFlag(core::ParseCount, "--requests", o.requests);
      if (!n) return tl::unexpected(n.error());
      c->pass.requests_per_client = *n;
    }
  }
  return core::Ok();
}

// Value sizes and expiry: --data-size-range, --expiry-range.
core::Status ParseValueSizes(const LoadgenOptions& o, Config* c) {
  if (!o.data_size_range.empty()) {
    auto r = ParseFlag(core::ParseRange, "--data-size-range", o.data_size_range);
    if (!r) return tl::unexpected(r.error());
    if (r->min == 0) return LoadgenUsage("--data-size-range minimum must be at least 1");
    c->data_size_min = r->min;
    c->data_size_max = r->max;
  }
  if (!o.expiry_range.empty()) {
    auto r = ParseFlag(core::ParseRange, "--expiry-range", o.expiry_range);
    if (!r) return tl::unexpected(r.error());
    if (r->min == 0) return LoadgenUsage("--expiry-range minimum must be at least 1 second");
    c->expiry_min_s = r->min;
    c->expiry_max_s = r->max;
  }
  return core::Ok();
}

// memtier's --data-size-list: "size:weight,...", each a number (config_types.cpp,
// config_weight_list).
core::Result<std::vector<loadgen::SizeWeight>> ParseSizeList(const std::string& text) {
  std::vector<loadgen::SizeWeight> list;
  size_t pos = 0;
  // As memtier's parse, a trailing comma ends the list.
  while (pos < text.size() || list.empty()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(pos, comma - pos);
    const size_t colon = item.find(':');
    uint32_t size = 0;
    uint32_t weight = 0;
    const auto number = [](std::string_view digits, uint32_t* out) {
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *out);
      return !digits.empty() && ec == std::errc() && end == digits.data() + digits.size();
    };
    if (colon == std::string::npos || !number(std::string_view(item).substr(0, colon), &size) ||
        !number(std::string_view(item).substr(colon + 1), &weight)) {
      return LoadgenUsage("invalid --data-size-list '" + text +
                          "' (expected size1:weight1,...,sizeN:weightN)");
    }
    list.push_back({size, weight});
    pos = comma + 1;
  }
  return list;
}

// The value shapes memtier has beside -d and --data-size-range, and its refusals of mixing them
// (memtier_benchmark.cpp, main's data-size checks).
core::Status ParseValueShapes(const LoadgenOptions& o, Config* c) {
  if (!o.data_size_list.empty()) {
    auto list = ParseSizeList(o.data_size_list);
    if (!list) return tl::unexpected(list.error());
    c->data_size_list = std::move(*list);
  }
  if (o.data_size_given && (!o.data_size_list.empty() || !o.data_size_range.empty())) {
    return LoadgenUsage("--data-size cannot be used with --data-size-list or --data-size-range");
  }
  if (!o.data_size_pattern.empty() && o.data_size_pattern != "R" && o.data_size_pattern != "S") {
    return LoadgenUsage("invalid --data-size-pattern '" + o.data_size_pattern + "' (use R or S)");
  }
  // memtier reads the pattern with a range only.
  c->data_size_by_key = o.data_size_pattern == "S";
  return core::Ok();
}

// --data-import: the file read, its items' keys as the key range unless --generate-keys, and
// memtier's refusals of what does not go with it (memtier_benchmark.cpp, main).
core::Status ParseDataImport(const LoadgenOptions& o, Config* c) {
  if (c->data_import.empty()) {
    if (c->no_expiry) return LoadgenUsage("use --no-expiry only with --data-import");
    return core::Ok();
  }
  if (c->cluster_mode) return LoadgenUsage("--cluster-mode cannot be specified when importing");
  if (o.data_size_given || !o.data_size_list.empty() || !o.data_size_range.empty()) {
    return LoadgenUsage("--data-size cannot be specified when importing (--data-import)");
  }
  if (c->random_data) return LoadgenUsage("--random-data cannot be specified when importing");
  if (!c->generate_keys && o.key_range_given) {
    return LoadgenUsage(
        "use --key-minimum, --key-maximum and --key-prefix only with --generate-keys");
  }
  // Ours: the imported SET/GET mix has no SETRANGE form and no --command templates.
  if (c->data_offset > 0) return LoadgenUsage("--data-offset cannot be used with --data-import");
  if (!c->commands.empty()) return LoadgenUsage("--command cannot be used with --data-import");
  auto items = loadgen::ReadImportFile(c->data_import);
  if (!items) return tl::unexpected(items.error());
  if (items->empty()) return LoadgenUsage("--data-import: " + c->data_import + " has no items");
  if (!c->generate_keys) {
    c->load.key_minimum = 1;
    c->load.key_maximum = items->size();
  }
  c->imported = std::make_shared<const std::vector<loadgen::ImportedItem>>(std::move(*items));
  return core::Ok();
}

// What is sent: --command templates, or the SET:GET --ratio and --key-pattern.
core::Status ParseMix(const LoadgenOptions& o, Config* c) {
  if (!c->commands.empty()) {
    if (!o.ratio.empty()) {
      return LoadgenUsage("--ratio cannot be combined with --command (use --command-ratio)");
    }
    if (!o.key_pattern.empty()) {
      return LoadgenUsage(
          "--key-pattern cannot be combined with --command (use --command-key-pattern)");
    }
    return core::Ok();
  }
  if (!o.ratio.empty()) {
    auto r = ParseFlag(core::ParseRatio, "--ratio", o.ratio);
    if (!r) return tl::unexpected(r.error());
    c->load.ratio = *r;
  }
  if (!o.key_pattern.empty()) return ParseKeyPatternPair(o.key_pattern, c);
  return core::Ok();
}

// Rate, warm-up, reconnects and the progress line.
core::Status ParsePacing(const LoadgenOptions& o, Config* c) {
  if (!o.rate.empty()) {
    auto r = ParsePositiveFlag(core::ParseCount, "--rate", o.rate);
    if (!r) return tl::unexpected(r.error());
    c->pass.rate_per_sec = static_cast<double>(*r);
  }
  if (!o.rate_limiting.empty()) {
    if (!o.rate.empty()) {
      return LoadgenUsage(
          "--rate-limiting (per connection) and --rate (in total) set one rate: "
          "give one");
    }
    auto r = ParsePositiveFlag(core::ParseCount, "--rate-limiting", o.rate_limiting);
    if (!r) return tl::unexpected(r.error());
    // memtier caps each connection at N requests a second; here it is the open loop at N per
    // connection, each connection's requests due at even intervals
    // (docs/load-generators.md#memtiers---rate-limiting).
    c->rate_limit_per_connection = *r;
    c->pass.rate_per_sec = static_cast<double>(*r) * c->total_clients();
  }
  if (!o.warmup_time.empty()) {
    auto d = ParseFlag(core::ParseDuration, "--warmup-time", o.warmup_time);
    if (!d) return tl::unexpected(d.error());
    c->pass.warmup_time = *d;
  }
  using loadgen::ProgressMode;
  using loadgen::ReconnectPolicy;
  const auto reconnect = Choose<ReconnectPolicy>(
      o.reconnect, {{"on", ReconnectPolicy::kOn}, {"off", ReconnectPolicy::kOff}});
  if (!reconnect) return LoadgenUsage("invalid --reconnect '" + o.reconnect + "' (use on or off)");
  c->reconnect = *reconnect;
  const auto progress = Choose<ProgressMode>(o.progress, {{"auto", ProgressMode::kAuto},
                                                          {"always", ProgressMode::kAlways},
                                                          {"never", ProgressMode::kNever}});
  if (!progress) {
    return LoadgenUsage("invalid --progress '" + o.progress + "' (use auto, always or never)");
  }
  c->progress = *progress;
  return core::Ok();
}

// memtier's reconnect flags (memtier_benchmark.cpp, config_parse_args), over ours.
core::Status ParseReconnects(const LoadgenOptions& o, Config* c) {
  if (o.reconnect_on_error) {
    if (c->reconnect == loadgen::ReconnectPolicy::kOff) {
      return LoadgenUsage("--reconnect-on-error contradicts --reconnect off");
    }
    c->reconnect = loadgen::ReconnectPolicy::kOn;  // our default already
  }
  if (!o.max_reconnect_attempts.empty()) {
    const std::string& text = o.max_reconnect_attempts;
    uint32_t attempts = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), attempts);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return LoadgenUsage("invalid --max-reconnect-attempts '" + text +
                          "' (expected a count, 0 for unlimited)");
    }
    c->max_reconnect_attempts = attempts;
  }
  if (!o.reconnect_backoff_factor.empty()) {
    const std::string& text = o.reconnect_backoff_factor;
    char* end = nullptr;
    const double factor = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !(factor >= 0 && std::isfinite(factor))) {
      return LoadgenUsage("invalid --reconnect-backoff-factor '" + text +
                          "' (expected a number, 0 or more)");
    }
    c->reconnect_backoff_factor = factor;
  }
  return core::Ok();
}

}  // namespace

core::Result<core::KeyPattern> ParseKeyPatternLetter(std::string_view text) {
  if (text.size() != 1) {
    return LoadgenUsage("invalid key pattern '" + std::string(text) +
                        "' (use one of R, S, P, G, Z)");
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
    // As memtier's, 0 (the fastest) and 100 (the slowest) are percentiles too.
    if (item.empty() || end != item.c_str() + item.size() || !(v >= 0 && v <= 100)) {
      return LoadgenUsage("invalid --print-percentiles '" + std::string(text) +
                          "' (expected values in [0, 100], e.g. 0,50,99,99.9,100)");
    }
    out.push_back(v);
    pos = comma + 1;
  }
  return out;
}

// --monitor-pattern as memtier reads it (one letter, either case), and the --monitor-input
// capture, read here so that loadgen gets the commands.
core::Status ParseReplay(const LoadgenOptions& o, Config* c) {
  if (!o.monitor_pattern.empty()) {
    if (o.monitor_pattern.size() != 1) {
      return LoadgenUsage(
          "--monitor-pattern must be a single character: 'S' (sequential) or 'R' (random)");
    }
    const char pattern = core::AsciiUpper(o.monitor_pattern)[0];
    if (pattern != 'S' && pattern != 'R') {
      return LoadgenUsage("--monitor-pattern must be 'S' (sequential) or 'R' (random)");
    }
    c->monitor_random = pattern == 'R';
  }
  if (c->monitor_input.empty()) return core::Ok();
  auto commands = loadgen::ReadMonitorFile(c->monitor_input);
  if (!commands) return tl::unexpected(core::WithContext(commands.error(), "--monitor-input"));
  c->monitor_commands = std::move(*commands);
  return core::Ok();
}

core::Result<Config> ParseLoadgenOptions(const LoadgenOptions& o) {
  if (!o.options_error.empty()) return LoadgenUsage(o.options_error);
  Config c = o.config;
  for (auto step : {&ParseConnection, &ParseLength, &ParseValueSizes, &ParseValueShapes, &ParseMix,
                    &ParseDataImport, &ParsePacing, &ParseOutputOptions, &ParseReconnects,
                    &ParseWaitOptions, &ParseReplay}) {
    if (auto st = step(o, &c); !st) return tl::unexpected(st.error());
  }
  if (auto st = loadgen::Validate(c); !st) return tl::unexpected(st.error());
  return c;
}

}  // namespace dfbench::cli
