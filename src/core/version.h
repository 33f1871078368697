// The version, commit and build date embedded at build time.
#pragma once

#include <string>

namespace dfbench::core {

struct BuildInfo {
  const char* version;     // "0.1.0"
  const char* commit;      // "abc1234" or "unknown"
  const char* build_date;  // "2026-04-08"
  const char* build_type;  // "Release", "Debug", ...
};

const BuildInfo& GetBuildInfo();

// "dfbench v0.1.0 (commit abc1234, built 2026-04-08)"
std::string VersionLine();

}  // namespace dfbench::core
