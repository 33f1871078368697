// Run ids made from a fixed wall time on a fake clock: the second of the time, then a suffix
// when a directory of that name is there already.
#include "scenarios/frame/run_identity.h"

#include <gtest/gtest.h>

#include "core/time_format.h"
#include "support/fake_clock.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::scenarios {
namespace {

TEST(NewRunId, NamesTheWallTimeAndAvoidsATakenName) {
  const testing::ScopedTempDir runs("run-ids");
  const testing::FakeClock clock(core::ParseIso8601("2026-04-08T14:32:17Z"));
  EXPECT_EQ(NewRunId(runs.path(), clock), "20260408-143217");
  std::filesystem::create_directory(runs / "20260408-143217");
  std::filesystem::create_directory(runs / "20260408-143217-2");
  EXPECT_EQ(NewRunId(runs.path(), clock), "20260408-143217-3");
}

}  // namespace
}  // namespace dfbench::scenarios
