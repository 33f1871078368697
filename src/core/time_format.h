// Wall-clock formatting for ids, file names and JSON timestamps (always UTC).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "core/clock.h"

namespace dfbench::core {

// "2026-04-08T14:32:17Z"
std::string FormatIso8601(SystemTime t);
// Now on the wall clock, in microseconds since the epoch: what hosts' clocks compare in.
inline int64_t NowEpochUs(const Clock& clock = RealClock()) {
  return std::chrono::duration_cast<std::chrono::microseconds>(clock.WallNow().time_since_epoch())
      .count();
}

inline std::string NowIso8601(const Clock& clock = RealClock()) {
  return FormatIso8601(clock.WallNow());
}

// "20260408-143217", used for run ids and directory names.
std::string FormatTimestampId(SystemTime t);

// Parses FormatIso8601's output; nullopt-like epoch (time_point{}) on failure.
SystemTime ParseIso8601(const std::string& s);

// "17m", "2h14m", "3d4h", "42s".
std::string FormatAge(std::chrono::seconds age);

}  // namespace dfbench::core
