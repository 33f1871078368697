// Wall-clock formatting for ids, file names and JSON timestamps (always UTC).
#pragma once

#include <chrono>
#include <string>

namespace dfbench::core {

using SystemTime = std::chrono::system_clock::time_point;

// "2026-04-08T14:32:17Z"
std::string FormatIso8601(SystemTime t);
inline std::string NowIso8601() {
  return FormatIso8601(std::chrono::system_clock::now());
}

// "20260408-143217", used for run ids and directory names.
std::string FormatTimestampId(SystemTime t);

// Parses FormatIso8601's output; nullopt-like epoch (time_point{}) on failure.
SystemTime ParseIso8601(const std::string& s);

// "17m", "2h14m", "3d4h", "42s".
std::string FormatAge(std::chrono::seconds age);

}  // namespace dfbench::core
