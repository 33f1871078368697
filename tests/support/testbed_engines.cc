#include "support/testbed_engines.h"

#include <unistd.h>

namespace dfbench::testing {

std::filesystem::path DragonflyBinary() {
  return std::filesystem::path(DFBENCH_TESTBEDS_DIR) / "dragonfly" / "bin" / "dragonfly";
}

namespace {

std::string SkipReason(const std::filesystem::path& path, const std::string& what) {
  if (access(path.c_str(), X_OK) == 0) return "";
  return "no " + what + " at " + path.string() +
         " (the test beds' build lives in shared/testbeds beside the clone)";
}

}  // namespace

std::string DragonflySkipReason() {
  return SkipReason(DragonflyBinary(), "Dragonfly build");
}

std::filesystem::path DflyBenchBinary() {
  return std::filesystem::path(DFBENCH_TESTBEDS_DIR) / "dragonfly" / "bin" / "dfly_bench";
}

std::string DflyBenchSkipReason() {
  return SkipReason(DflyBenchBinary(), "dfly_bench build");
}

}  // namespace dfbench::testing
