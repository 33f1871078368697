#include "core/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace dfbench::core {
namespace {

// Splits "12.5ms" into 12.5 and "ms". Fails on an empty or non-numeric prefix.
bool SplitNumber(std::string_view text, double* value, std::string_view* suffix) {
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    ++i;
  }
  if (i == 0) return false;
  std::string number(text.substr(0, i));
  char* end = nullptr;
  *value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(*value)) return false;
  *suffix = text.substr(i);
  return true;
}

// "1_000_000" as 1000000: an underscore may stand between two digits. "" when one stands
// elsewhere.
std::string WithoutDigitSeparators(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '_') {
      out += text[i];
      continue;
    }
    const bool between_digits = i > 0 && i + 1 < text.size() &&
                                std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                                std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (!between_digits) return "";
  }
  return out;
}

bool ParseUint(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

Result<std::chrono::microseconds> ParseDuration(std::string_view text) {
  double v = 0;
  std::string_view unit;
  if (!SplitNumber(text, &v, &unit)) {
    return Fail(ErrorKind::kUsage,
                "invalid duration '" + std::string(text) + "' (expected e.g. 30s, 500ms, 2m)");
  }
  double us_per_unit;
  if (unit.empty() || unit == "s") {
    us_per_unit = 1e6;
  } else if (unit == "ms") {
    us_per_unit = 1e3;
  } else if (unit == "us") {
    us_per_unit = 1;
  } else if (unit == "m") {
    us_per_unit = 60e6;
  } else if (unit == "h") {
    us_per_unit = 3600e6;
  } else {
    return Fail(ErrorKind::kUsage,
                "invalid duration unit in '" + std::string(text) + "' (use us, ms, s, m or h)");
  }
  // 2^63 microseconds (about 292,000 years) is where int64 ends: refused, never wrapped.
  const double us = v * us_per_unit;
  if (us >= 9.2e18) {
    return Fail(ErrorKind::kUsage, "duration '" + std::string(text) + "' is too long");
  }
  return std::chrono::microseconds(static_cast<int64_t>(std::llround(us)));
}

Result<uint64_t> ParseCount(std::string_view text) {
  const std::string digits = WithoutDigitSeparators(text);
  double v = 0;
  std::string_view unit;
  if (digits.empty() || !SplitNumber(digits, &v, &unit)) {
    return Fail(ErrorKind::kUsage, "invalid count '" + std::string(text) + "'");
  }
  double mult = 1;
  if (unit == "k" || unit == "K") {
    mult = 1e3;
  } else if (unit == "m" || unit == "M") {
    mult = 1e6;
  } else if (unit == "g" || unit == "G") {
    mult = 1e9;
  } else if (!unit.empty()) {
    return Fail(ErrorKind::kUsage,
                "invalid count suffix in '" + std::string(text) + "' (use k, M or G)");
  }
  // A whole number is read exactly (a double holds only 53 bits); past 2^64 - 1 a count cannot
  // be held: refused, never capped.
  const std::string_view number(digits.data(), digits.size() - unit.size());
  if (uint64_t whole = 0; number.find('.') == std::string_view::npos && ParseUint(number, &whole)) {
    const auto m = static_cast<uint64_t>(mult);
    if (whole > UINT64_MAX / m) {
      return Fail(ErrorKind::kUsage, "count '" + std::string(text) + "' is too large");
    }
    return whole * m;
  }
  const double n = std::round(v * mult);
  if (n >= 18446744073709551615.0) {
    return Fail(ErrorKind::kUsage, "count '" + std::string(text) + "' is too large");
  }
  return static_cast<uint64_t>(n);
}

Result<Ratio> ParseRatio(std::string_view text) {
  auto colon = text.find(':');
  Ratio r;
  uint64_t a = 0, b = 0;
  if (colon == std::string_view::npos || !ParseUint(text.substr(0, colon), &a) ||
      !ParseUint(text.substr(colon + 1), &b) || a > UINT32_MAX || b > UINT32_MAX) {
    return Fail(ErrorKind::kUsage,
                "invalid ratio '" + std::string(text) + "' (expected SET:GET, e.g. 1:10)");
  }
  if (a == 0 && b == 0) {
    return Fail(ErrorKind::kUsage, "invalid ratio '" + std::string(text) + "': both sides are 0");
  }
  r.set = static_cast<uint32_t>(a);
  r.get = static_cast<uint32_t>(b);
  return r;
}

Result<Range> ParseRange(std::string_view text) {
  auto sep = text.find_first_of("-:");
  Range r;
  if (sep == std::string_view::npos || !ParseUint(text.substr(0, sep), &r.min) ||
      !ParseUint(text.substr(sep + 1), &r.max)) {
    return Fail(ErrorKind::kUsage, "invalid range '" + std::string(text) + "' (expected min-max)");
  }
  if (r.min > r.max) {
    return Fail(ErrorKind::kUsage,
                "invalid range '" + std::string(text) + "': minimum is greater than maximum");
  }
  return r;
}

std::string FormatBytes(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  // 1023.96 KiB would print as "1024.0 KiB": move on while the rounded value reaches 1024.
  while (value >= 1023.95 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f %s", value, kUnits[unit]);
  return text;
}

}  // namespace dfbench::core
