#include "cli/loadgen/wait_flags.h"

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace dfbench::cli {
namespace {

// Two whole numbers around `separator` ("1:10", "0-2"); nullopt for anything else.
std::optional<std::pair<uint32_t, uint32_t>> NumberPair(std::string_view text, char separator) {
  const size_t at = text.find(separator);
  if (at == std::string_view::npos) return std::nullopt;
  const auto number = [](std::string_view digits) -> std::optional<uint32_t> {
    uint32_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
      return std::nullopt;
    }
    return value;
  };
  const auto first = number(text.substr(0, at));
  const auto second = number(text.substr(at + 1));
  if (!first || !second) return std::nullopt;
  return std::pair{*first, *second};
}

// memtier's config_range: MIN-MAX in either order, MAX above 0.
core::Status ParseMemtierRange(const std::string& flag, const std::string& text, uint32_t* min,
                               uint32_t* max) {
  auto range = NumberPair(text, '-');
  if (range && range->first > range->second) std::swap(range->first, range->second);
  if (!range || range->second == 0) {
    return core::Fail(core::ErrorKind::kUsage,
                      "invalid " + flag + " '" + text + "' (expected MIN-MAX with MAX at least 1)");
  }
  *min = range->first;
  *max = range->second;
  return core::Ok();
}

}  // namespace

void AddWaitFlags(CLI::App* sub, LoadgenOptions* o) {
  const char* group = "WAIT (memtier's)";
  sub->add_option("--wait-ratio", o->wait_ratio,
                  "SET:WAIT ratio: WAIT NUMREPLICAS TIMEOUT between the SETs and GETs "
                  "(redis; default none, 1:0)")
      ->group(group);
  sub->add_option("--num-slaves", o->num_slaves,
                  "WAIT's numreplicas, uniform in MIN-MAX (default 0-0)")
      ->group(group);
  sub->add_option("--wait-timeout", o->wait_timeout,
                  "WAIT's timeout in ms, normal in MIN-MAX centred in the middle (default 0-0)")
      ->group(group);
}

core::Status ParseWaitOptions(const LoadgenOptions& o, loadgen::Config* c) {
  if (!o.wait_ratio.empty()) {
    const auto ratio = NumberPair(o.wait_ratio, ':');
    if (!ratio || (ratio->first == 0 && ratio->second == 0)) {
      return core::Fail(core::ErrorKind::kUsage, "invalid --wait-ratio '" + o.wait_ratio +
                                                     "' (expected SETS:WAITS, not both 0)");
    }
    c->wait.sets = ratio->first;
    c->wait.waits = ratio->second;
  }
  if (!o.num_slaves.empty()) {
    auto st = ParseMemtierRange("--num-slaves", o.num_slaves, &c->wait.replicas_min,
                                &c->wait.replicas_max);
    if (!st) return st;
  }
  if (!o.wait_timeout.empty()) {
    return ParseMemtierRange("--wait-timeout", o.wait_timeout, &c->wait.timeout_min_ms,
                             &c->wait.timeout_max_ms);
  }
  return core::Ok();
}

}  // namespace dfbench::cli
