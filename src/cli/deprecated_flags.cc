#include "cli/deprecated_flags.h"

#include <charconv>
#include <optional>
#include <string>

namespace dfbench::cli {
namespace {

std::optional<long long> AsInteger(const std::string& text) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

// Whether two values mean the same: "1" and "true" for a boolean, "04" and "4" for a number.
bool SameValue(const std::string& a, const std::string& b) {
  if (auto x = ParseGoBool(a), y = ParseGoBool(b); x && y) return *x == *y;
  if (auto x = AsInteger(a), y = AsInteger(b); x && y) return *x == *y;
  return a == b;
}

// The value a flag was given last (a boolean given bare reads "true").
std::string LastValue(const CLI::Option& opt) {
  return opt.results().empty() ? "true" : opt.results().back();
}

}  // namespace

const std::vector<DeprecatedFlag>& DeprecatedFlags() {
  static const std::vector<DeprecatedFlag> flags = {
      {"--io-threads", {"--redis_io_threads", "--valkey_io_threads"}},
      {"--pin-network", {"--redis_pin_network", "--valkey_pin_network"}},
      {"--num-shards", {"--dragonfly_num_shards"}},
      {"--conn-use-incoming-cpu", {"--dragonfly_conn_use_incoming_cpu"}},
      {"--dfly-version", {"--dragonfly_version"}},
      {"--dfly-threads", {"--dfly-bench-threads"}},
      {"--dfly-conns", {"--dfly-bench-conns"}},
      {"--dfly-pipeline", {"--dfly-bench-pipeline"}},
      {"--dfly-data-size", {"--dfly-bench-data-size"}},
  };
  return flags;
}

void CheckDeprecatedFlags(const CLI::App& sub) {
  for (const auto& d : DeprecatedFlags()) {
    const CLI::Option* alias = sub.get_option_no_throw(d.alias);
    if (alias == nullptr || alias->count() == 0) continue;
    for (const char* flag : d.flags) {
      const CLI::Option* current = sub.get_option_no_throw(flag);
      if (current == nullptr || current->count() == 0) continue;
      const std::string a = LastValue(*alias), c = LastValue(*current);
      if (!SameValue(a, c)) {
        ExitWith(core::ErrorKind::kUsage, std::string(d.alias) + " " + a + " and " + flag + " " +
                                              c + " disagree (" + d.alias +
                                              " is the deprecated spelling): give only " + flag);
      }
    }
  }
}

}  // namespace dfbench::cli
