// The sampler's settle wait on real processes of this machine: one that holds its memory
// settles, one that keeps allocating runs into the limit, which a progress line says.
#include "scenarios/memory/memory_sampler.h"

#include <gtest/gtest.h>

#include "core/subprocess.h"
#include "hosts/local_host.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::scenarios {
namespace {

using std::chrono::milliseconds;

core::Process SpawnOrFail(const std::vector<std::string>& argv) {
  auto p = core::Spawn({.argv = argv});
  EXPECT_TRUE(p) << p.error().message;
  return p ? std::move(*p) : core::Process();
}

class MemorySamplerTest : public ::testing::Test {
 protected:
  const testing::ScopedTempDir dir_{"sampler"};
  hosts::LocalHost host_{dir_.path()};
};

TEST_F(MemorySamplerTest, AQuietProcessSettlesWithoutANote) {
  // 64 MiB of its own, then idle: a tiny process (sleep: 0.3 MiB) is mostly shared libc pages,
  // whose PSS moves by more than the 1% criterion as other processes start and exit beside it.
  // Its time.sleep is the idle process being modelled, kept alive for the sampler to read.
  core::Process holder =
      SpawnOrFail({"python3", "-c", "import time\nheld = b'x' * (64 << 20)\ntime.sleep(30)\n"});
  MemorySampler sampler(host_, holder.pid());
  ::testing::internal::CaptureStderr();
  auto s = sampler.WaitUntilSettled(milliseconds(300), milliseconds(5000), "[holder] idle memory");
  const std::string notes = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_GT(s->pss_bytes, 0u);
  EXPECT_EQ(notes, "");
  EXPECT_LT(sampler.samples().size(), 50u);  // settled long before the limit
}

TEST_F(MemorySamplerTest, AGrowingProcessReachesTheLimitAndSaysSo) {
  // 4 MiB more every 20 ms: never within 1% over 300 ms. Its time.sleep paces the growth being
  // modelled; the test waits on the sampler's own limit, not on it.
  core::Process grower =
      SpawnOrFail({"python3", "-c",
                   "import time\nheld = []\nwhile True:\n    held.append(bytearray(4 << 20))\n"
                   "    time.sleep(0.02)\n"});
  MemorySampler sampler(host_, grower.pid());
  ::testing::internal::CaptureStderr();
  auto s = sampler.WaitUntilSettled(milliseconds(300), milliseconds(1000), "[grower] idle memory");
  const std::string notes = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_NE(notes.find("[grower] idle memory: PSS did not settle within 1s (still "),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("MiB over the last 300 ms); recording the last sample"), std::string::npos)
      << notes;
}

}  // namespace
}  // namespace dfbench::scenarios
