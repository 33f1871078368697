// A scenario's run on a fake clock: its id and start time are the clock's wall time, the
// cooldown between its engines passes on the clock, and its end time is the start plus that
// cooldown, to the second; nothing sleeps.
#include <gtest/gtest.h>

#include "drivers/builtin_driver.h"
#include "results/memory_schema.h"
#include "scenarios/frame/run_record.h"
#include "support/dfbench_home.h"
#include "support/fake_clock.h"

namespace dfbench::scenarios {
namespace {

using RunClockTest = dfbench::testing::DfbenchHomeTest;

TEST_F(RunClockTest, ARunsIdAndTimesAreItsClocks) {
  state::SetupState setup{.id = "s", .status = state::SetupStatus::kReady};
  ASSERT_TRUE(core::MakeDirs(state::SetupDir(setup.id)));
  const drivers::BuiltinDriver driver;
  const RunKind<results::MemoryRunResults> kind{
      "memory", "memory", "raw", &results::RenderMemoryJson, &results::RenderMemoryCsv};
  dfbench::testing::FakeClock clock;  // 2026-04-08T14:32:17Z
  results::MemoryRunResults r;

  auto run = ScenarioRun<results::MemoryRunResults>::Open(&setup, driver, kind, &r, clock);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(r.run_id, "20260408-143217");
  EXPECT_EQ(r.created_at, "2026-04-08T14:32:17Z");

  ::testing::internal::CaptureStderr();
  run->TakeEngineTurns(
      {engines::FindEngine("redis"), engines::FindEngine("valkey")}, std::chrono::seconds(10),
      &r.engines, [](const engines::EngineSpec&, results::MemoryEngineResult*) { return true; });
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(clock.Elapsed(), std::chrono::seconds(10));
  EXPECT_EQ(r.completed_at, "2026-04-08T14:32:27Z");
  EXPECT_EQ(r.status, results::RunStatus::kCompleted);
}

}  // namespace
}  // namespace dfbench::scenarios
