#include "cli/flag_ranges.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>

#include "core/check.h"
#include "core/load_limits.h"
#include "core/units.h"

namespace dfbench::cli {
namespace {

using enum NumberKind;

constexpr int64_t kSecondUs = 1'000'000;
constexpr int64_t kDayUs = 86'400 * kSecondUs;
constexpr int64_t kKeyRangeMax = int64_t{1} << 62;   // keys 1..N, as the load generators hold them
constexpr int64_t kRequestsMax = 1'000'000'000'000;  // per connection: days of load at any speed
constexpr int64_t kRateMax = int64_t{1} << 30;       // requests per second of one connection
constexpr int64_t kTotalRateMax = int64_t{1} << 40;  // requests per second of all connections

// A load limit (core/load_limits.h) under every spelling of the commands.
void AddLoadLimit(std::vector<FlagRange>* ranges, core::LoadLimit limit,
                  std::initializer_list<const char*> flags) {
  for (const char* flag : flags) ranges->push_back({flag, kInteger, limit.min, limit.max});
}

std::vector<FlagRange> MakeRanges() {
  std::vector<FlagRange> r = {
      // run, quickstart
      {"--memtier-requests", kInteger, 1, kRequestsMax},
      {"--warmup-requests", kInteger, 0, kRequestsMax},
      // every per-engine benchmark
      {"--trials", kInteger, 1, 1000},
      {"--cooldown", kDuration, 0, kDayUs},
      {"--redis_io_threads", kInteger, 0, 128},
      {"--valkey_io_threads", kInteger, 0, 128},
      {"--io-threads", kInteger, 0, 128},
      {"--dragonfly_num_shards", kInteger, -1, 1 << 16},
      {"--num-shards", kInteger, -1, 1 << 16},
      {"--redis_shards", kInteger, 0, 256},
      {"--valkey_shards", kInteger, 0, 256},
      // setup, quickstart
      {"--port", kInteger, 1, 65535},
      {"--ssh-port", kInteger, 1, 65535},
      {"--replicas", kInteger, 0, 16},
      {"--client-count", kInteger, 1, 16},
      {"--ssh-wait", kDuration, kSecondUs, kDayUs},
      // run-commands, run-commands-dfly, sweep
      {"--key-maximum", kInteger, 1, kKeyRangeMax},
      {"--command-key-maximum", kInteger, 0, kKeyRangeMax},
      {"--preload-items", kInteger, 1, 100000},
      {"--test-time", kInteger, 1, 86400},
      {"--warmup-time", kInteger, 0, 86400},
      {"--dfly-bench-qps", kInteger, 0, kRateMax},
      // sweep
      {"--step-time", kDuration, kSecondUs, kDayUs},
      {"--confirm", kInteger, 0, 20},
      // run-memory
      {"--keys", kCount, 1, 10'000'000'000},
      {"--update-rate", kCount, 0, 1'000'000'000},
      {"--test-time", kDuration, kSecondUs, kDayUs},
      {"--snapshot-delay", kDuration, 0, kDayUs},
      {"--snapshot-timeout", kDuration, 0, kDayUs},
      // run-replication: --cases holds qps=<n> per connection
      {"--cases", kCount, 1, kRateMax},
      {"--preload-keys", kCount, 1, kKeyRangeMax},
      {"--preload-time", kDuration, kSecondUs, kDayUs},
      // loadgen (beside --port, --key-maximum, --test-time and the load limits above)
      {"--requests", kCount, 1, kRequestsMax},
      {"--key-minimum", kInteger, 0, kKeyRangeMax},
      {"--rate", kCount, 1, kTotalRateMax},
      {"--rate-limiting", kCount, 1, kRateMax},
      {"--warmup-time", kDuration, 0, kDayUs},
      {"--loadgen-processes", kInteger, 1, 64},
      {"--start-at", kInteger, 0, 4'102'444'800'000'000},  // microseconds, up to 2100
      {"--seed-client-base", kInteger, 0, 100'000'000},
      {"--select-db", kInteger, 0, 1 << 30},
      // loadgen's live metrics
      {"--statsd-port", kInteger, 1, 65535},
      {"--graphite-port", kInteger, 1, 65535},
      {"--prometheus-port", kInteger, 1, 65535},
      {"--data-offset", kInteger, 0, (1 << 29) - 1},  // memtier's bound (loadgen::kMaxDataOffset)
      // memtier's unsigned
      {"--thread-conn-start-min-jitter-micros", kInteger, 0, UINT32_MAX},
      {"--thread-conn-start-max-jitter-micros", kInteger, 0, UINT32_MAX},
      // memtier's client staircase: each above zero when given
      {"--clients-start", kInteger, 1, UINT32_MAX},
      {"--clients-step", kInteger, 1, UINT32_MAX},
      {"--step-duration", kInteger, 1, 86400},
      // loadgen's reconnects (memtier's flags)
      {"--reconnect-interval", kInteger, 0, kRequestsMax},
      {"--max-reconnect-attempts", kInteger, 0, UINT32_MAX},
      {"--connection-timeout", kInteger, 0, 86400},
      // memtier's unsigned count of continuation SCANs
      {"--scan-incremental-max-iterations", kInteger, 0, UINT32_MAX},
  };
  AddLoadLimit(&r, core::kThreadsLimit,
               {"--memtier-threads", "--dfly-bench-threads", "--dfly-threads", "--threads"});
  AddLoadLimit(&r, core::kClientsLimit,
               {"--memtier-clients", "--dfly-bench-conns", "--dfly-conns", "--clients"});
  AddLoadLimit(&r, core::kPipelineLimit,
               {"--memtier-pipeline", "--dfly-bench-pipeline", "--dfly-pipeline", "--pipeline"});
  AddLoadLimit(&r, core::kDataSizeLimit,
               {"--memtier-data-size", "--dfly-bench-data-size", "--dfly-data-size", "--value-size",
                "--data-size"});
  return r;
}

std::string DurationText(int64_t us) {
  if (us == 0) return "0s";
  struct Unit {
    int64_t us;
    const char* name;
  };
  static constexpr Unit kUnits[] = {
      {3600 * kSecondUs, "h"}, {60 * kSecondUs, "m"}, {kSecondUs, "s"}, {1000, "ms"}};
  for (const auto& u : kUnits) {
    if (us % u.us == 0) return std::to_string(us / u.us) + u.name;
  }
  return std::to_string(us) + "us";
}

std::string ValueText(const FlagRange& range, int64_t v) {
  return range.kind == kDuration ? DurationText(v) : std::to_string(v);
}

// What `text` reads as: a value, a number too large to hold, or no number of `kind` at all.
struct Parsed {
  std::optional<int64_t> value;
  bool too_large = false;
};

Parsed ParseInteger(std::string_view text) {
  int64_t v = 0;
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(text.data(), last, v);
  if (end != last || text.empty()) return {};
  if (ec == std::errc::result_out_of_range) return {.too_large = true};
  if (ec != std::errc()) return {};
  return {.value = v};
}

Parsed Parse(NumberKind kind, std::string_view text) {
  switch (kind) {
    case kInteger:
      return ParseInteger(text);
    case kCount: {
      const auto n = core::ParseCount(text);
      if (!n) return {.too_large = n.error().message.find("too large") != std::string::npos};
      if (*n > static_cast<uint64_t>(INT64_MAX)) return {.too_large = true};
      return {.value = static_cast<int64_t>(*n)};
    }
    case kDuration: {
      const auto d = core::ParseDuration(text);
      if (!d) return {.too_large = d.error().message.find("too long") != std::string::npos};
      return {.value = d->count()};
    }
  }
  return {};
}

const char* KindName(NumberKind kind) {
  switch (kind) {
    case kInteger:
      return "a whole number";
    case kCount:
      return "a count (e.g. 500, 10k, 2.5M, 1G)";
    case kDuration:
      return "a duration (e.g. 30s, 500ms, 2m, 1h)";
  }
  return "";
}

}  // namespace

const std::vector<FlagRange>& FlagRanges() {
  static const std::vector<FlagRange> ranges = MakeRanges();
  return ranges;
}

const FlagRange* FindFlagRange(std::string_view flag, NumberKind kind) {
  for (const auto& r : FlagRanges()) {
    if (r.flag == flag && r.kind == kind) return &r;
  }
  return nullptr;
}

std::string RangeText(const FlagRange& range) {
  return ValueText(range, range.min) + " to " + ValueText(range, range.max);
}

core::Result<int64_t> ParseInRange(const FlagRange& range, std::string_view text) {
  const std::string given = std::string(range.flag) + " \"" + std::string(text) + "\"";
  const Parsed p = Parse(range.kind, text);
  if (p.value && *p.value >= range.min && *p.value <= range.max) return *p.value;
  if (p.value || p.too_large) {
    return core::Fail(core::ErrorKind::kUsage, given + " is out of range: use " + RangeText(range));
  }
  return core::Fail(core::ErrorKind::kUsage,
                    given + " is not " + KindName(range.kind) + ": use " + RangeText(range));
}

CLI::Option* WithRange(CLI::Option* opt, NumberKind kind, std::string_view word) {
  // Not get_name(), which is empty for a hidden (deprecated) flag.
  DFB_CHECK(!opt->get_lnames().empty());
  const std::string name = "--" + opt->get_lnames().front();
  const FlagRange* range = FindFlagRange(name, kind);
  if (range == nullptr) std::fprintf(stderr, "no range for %s\n", name.c_str());
  DFB_CHECK(range != nullptr);
  return opt->transform(CLI::Validator(
      [range, word = std::string(word)](std::string& text) -> std::string {
        if (!word.empty() && text == word) return "";
        auto v = ParseInRange(*range, text);
        // Thrown past CLI11's own wording ("name: ..."), which leaves a hidden flag unnamed.
        if (!v) throw CLI::ConversionError(v.error().message);
        // In plain decimal for CLI11, which would read "010" as octal (hence a transform, which
        // may rewrite the text, rather than a check).
        if (range->kind == kInteger) text = std::to_string(*v);
        return "";
      },
      "[" + (word.empty() ? "" : std::string(word) + " or ") + RangeText(*range) + "]",
      RangeValidatorName(kind)));
}

std::string RangeValidatorName(NumberKind kind) {
  return "range-" + std::to_string(static_cast<int>(kind));
}

const FlagRange* RangeOfOption(CLI::Option* opt) {
  if (opt->get_lnames().empty()) return nullptr;
  for (const NumberKind kind : {kInteger, kCount, kDuration}) {
    try {
      opt->get_validator(RangeValidatorName(kind));
      return FindFlagRange("--" + opt->get_lnames().front(), kind);
    } catch (const CLI::OptionNotFound&) {
    }
  }
  return nullptr;
}

}  // namespace dfbench::cli
