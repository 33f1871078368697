#include <cstdio>

#include "cli/commands.h"
#include "core/version.h"

namespace dfbench::cli {

void AddVersion(CLI::App* sub, Action* action) {
  SetExamples(sub, "  dfbench version\n  # dfbench v0.1.0 (commit abc1234, built 2026-04-08)\n");
  sub->callback([action] {
    *action = [] {
      std::printf("%s\n", core::VersionLine().c_str());
      return 0;
    };
  });
}

}  // namespace dfbench::cli
