// The sampler's schedule on a fake clock, reading a real process of this machine: a sample every
// 100 ms from the start, the wait before each slept on the clock (in the interruptible sleep's
// 50 ms slices); a tick already late samples at once, and the next waits a whole interval
// after it (samples never bunch up).
#include <gtest/gtest.h>

#include "core/subprocess.h"
#include "hosts/local_host.h"
#include "scenarios/memory/memory_sampler.h"
#include "support/fake_clock.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::scenarios {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

TEST(MemorySamplerSchedule, SamplesEveryIntervalOfTheClock) {
  const testing::ScopedTempDir dir("sampler-schedule");
  hosts::LocalHost host(dir.path());
  auto sleeper = core::Spawn({.argv = {"sleep", "60"}});
  ASSERT_TRUE(sleeper) << sleeper.error().message;
  testing::FakeClock clock;
  MemorySampler sampler(host, sleeper->pid(), clock);

  for (int i = 0; i < 3; ++i) ASSERT_TRUE(sampler.Tick());
  clock.Advance(milliseconds(250));  // a slow read elsewhere: the next tick is late
  ASSERT_TRUE(sampler.Tick());
  ASSERT_TRUE(sampler.Tick());

  std::vector<double> times;
  for (const auto& s : sampler.samples()) times.push_back(s.t_sec);
  EXPECT_EQ(times, (std::vector<double>{0.0, 0.1, 0.2, 0.45, 0.55}));
  EXPECT_EQ(clock.sleeps(), std::vector<nanoseconds>(6, milliseconds(50)));
  EXPECT_EQ(sampler.Now(), 0.55);
  sleeper->Terminate(milliseconds(0));
}

}  // namespace
}  // namespace dfbench::scenarios
