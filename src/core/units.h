// Parsing of values with units, shared by every flag that takes one.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"

namespace dfbench::core {

// "30s", "500ms", "2m", "1h", "250us"; a bare number is seconds. Negative values, and values of
// 2^63 microseconds or more, are refused.
Result<std::chrono::microseconds> ParseDuration(std::string_view text);

// "1000", "10k", "2.5M", "1G" (powers of 1000), "1_000_000" (an underscore between digits).
// Negative values, and values past 2^64 - 1, are refused, never wrapped or capped.
Result<uint64_t> ParseCount(std::string_view text);

// How many SETs to how many GETs a load sends, in turn: 1:10 sends one SET, then ten GETs.
// Never both 0 once parsed.
struct Ratio {
  uint32_t set = 0;
  uint32_t get = 0;
  // "1:10", the one way a ratio is written: on command lines and in result files.
  std::string ToString() const { return std::to_string(set) + ":" + std::to_string(get); }
  bool operator==(const Ratio&) const = default;
};
// "SET:GET" with non-negative integers, not both zero. kUsage quoting `text`: "invalid ratio
// '1-10' (expected SET:GET, e.g. 1:10)", "invalid ratio '0:0': both sides are 0".
Result<Ratio> ParseRatio(std::string_view text);

// A "min-max" (or "min:max") integer range with min <= max.
struct Range {
  uint64_t min = 0;
  uint64_t max = 0;
};
Result<Range> ParseRange(std::string_view text);

// A size as people read it, in powers of 1024: "512 B", "1.5 KiB", "17.2 MiB", "3.0 GiB".
std::string FormatBytes(uint64_t bytes);

}  // namespace dfbench::core
