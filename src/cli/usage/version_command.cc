#include <cstdio>

#include "cli/commands.h"
#include "core/version.h"

namespace dfbench::cli {

void AddVersion(CLI::App* sub, Action* action) {
  sub->callback([action] {
    *action = [] {
      std::printf("%s\n", core::VersionLine().c_str());
      return 0;
    };
  });
}

}  // namespace dfbench::cli
