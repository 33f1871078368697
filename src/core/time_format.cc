#include "core/time_format.h"

#include <ctime>

#include "core/format.h"

namespace dfbench::core {
namespace {

std::tm ToUtc(SystemTime t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  return tm;
}

}  // namespace

std::string FormatIso8601(SystemTime t) {
  std::tm tm = ToUtc(t);
  return Format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string FormatTimestampId(SystemTime t) {
  std::tm tm = ToUtc(t);
  return Format("{:04}{:02}{:02}-{:02}{:02}{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec);
}

SystemTime ParseIso8601(const std::string& s) {
  std::tm tm{};
  if (!strptime(s.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm)) return SystemTime{};
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

std::string FormatAge(std::chrono::seconds age) {
  long s = age.count();
  if (s < 0) s = 0;
  if (s < 60) return Format("{}s", s);
  if (s < 3600) return Format("{}m", s / 60);
  if (s < 86400) return Format("{}h{}m", s / 3600, (s % 3600) / 60);
  return Format("{}d{}h", s / 86400, (s % 86400) / 3600);
}

}  // namespace dfbench::core
