#include "support/testbed_engines.h"

#include <unistd.h>

namespace dfbench::testing {

std::filesystem::path DragonflyBinary() {
  return std::filesystem::path(DFBENCH_TESTBEDS_DIR) / "dragonfly" / "bin" / "dragonfly";
}

std::string DragonflySkipReason() {
  const auto path = DragonflyBinary();
  if (access(path.c_str(), X_OK) == 0) return "";
  return "no Dragonfly build at " + path.string() +
         " (the test beds' build lives in shared/testbeds beside the clone)";
}

}  // namespace dfbench::testing
