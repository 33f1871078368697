// Engine builds the test beds provide beside the clone (shared/testbeds/), used by path and never
// copied into the project: a real Dragonfly and its dfly_bench, so flags, INFO fields, snapshots
// and the load generator's outputs are checked against the things themselves.
//
//   if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
//   ... "--dragonfly_binary", DragonflyBinary().string() ...
#pragma once

#include <filesystem>
#include <string>

namespace dfbench::testing {

// shared/testbeds/dragonfly/bin/dragonfly.
std::filesystem::path DragonflyBinary();

// "" when DragonflyBinary() is an executable file; otherwise the line a test skips with.
std::string DragonflySkipReason();

// shared/testbeds/dragonfly/bin/dfly_bench, Dragonfly's load generator from the same build.
std::filesystem::path DflyBenchBinary();

// "" when both DragonflyBinary() and DflyBenchBinary() are executable files; otherwise the line
// a test skips with.
std::string DflyBenchSkipReason();

// shared/testbeds/bin/valkey-server: Valkey 8.0.1 built from its release.
std::filesystem::path ValkeyBinary();
// "" when it is there, else the reason a test skips.
std::string ValkeySkipReason();

// shared/testbeds/bin/memtier_benchmark: memtier_benchmark 2.3.0 built from its release.
std::filesystem::path MemtierBinary();

// "" when MemtierBinary() is an executable file; otherwise the line a test skips with.
std::string MemtierSkipReason();

}  // namespace dfbench::testing
