#include "support/testbed_engines.h"

#include <unistd.h>

namespace dfbench::testing {
namespace {

std::filesystem::path DragonflyBin() {
  return std::filesystem::path(DFBENCH_TESTBEDS_DIR) / "dragonfly" / "bin";
}

// "" when `path` is an executable file; otherwise the line a test skips with.
std::string MissingBuild(const std::filesystem::path& path, const std::string& what) {
  if (access(path.c_str(), X_OK) == 0) return "";
  return "no " + what + " build at " + path.string() +
         " (the test beds' build lives in shared/testbeds beside the clone)";
}

}  // namespace

std::filesystem::path DragonflyBinary() {
  return DragonflyBin() / "dragonfly";
}

std::string DragonflySkipReason() {
  return MissingBuild(DragonflyBinary(), "Dragonfly");
}

std::filesystem::path DflyBenchBinary() {
  return DragonflyBin() / "dfly_bench";
}

std::string DflyBenchSkipReason() {
  if (auto why = DragonflySkipReason(); !why.empty()) return why;
  return MissingBuild(DflyBenchBinary(), "dfly_bench");
}

std::filesystem::path ValkeyBinary() {
  return std::filesystem::path(DFBENCH_TESTBEDS_DIR) / "bin" / "valkey-server";
}

std::string ValkeySkipReason() {
  return MissingBuild(ValkeyBinary(), "Valkey");
}

std::filesystem::path MemtierBinary() {
  return std::filesystem::path(DFBENCH_TESTBEDS_DIR) / "bin" / "memtier_benchmark";
}

std::string MemtierSkipReason() {
  return MissingBuild(MemtierBinary(), "memtier_benchmark");
}

}  // namespace dfbench::testing
