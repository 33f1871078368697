// Engine builds the test beds provide beside the clone (shared/testbeds/), used by path and never
// copied into the project: a real Dragonfly, so its flags, INFO fields and snapshots are checked
// against the thing itself.
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

}  // namespace dfbench::testing
