// The engine's ready wait and its stop's grace on a fake clock: a real process that never answers
// is given up on at exactly its deadline, every poll's pause on the clock, no real wait.
#include <gtest/gtest.h>

#include "core/files.h"
#include "engines/engine.h"
#include "hosts/local_host.h"
#include "support/fake_clock.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::engines {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

TEST(ReadyDeadline, AnEngineThatNeverAnswersIsGivenUpOnAtItsDeadline) {
  const testing::ScopedTempDir dir("ready-deadline");
  hosts::LocalHost host(dir / "work");
  const auto bin = dir / "silent-redis";
  ASSERT_TRUE(core::WriteFileAtomic(bin, "#!/bin/sh\necho waiting\nexec sleep 60\n", 0755));
  testing::FakeClock clock;

  auto engine = Start(host, *FindEngine("redis"), bin.string(), {},
                      StartOptions{.ready_timeout = seconds(20), .clock = &clock});

  ASSERT_FALSE(engine);
  EXPECT_EQ(engine.error().kind, core::ErrorKind::kEnvironment);
  const std::string& msg = engine.error().message;
  EXPECT_NE(msg.find("no answer to PING on 127.0.0.1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find(" within 20s (the last try: "), std::string::npos) << msg;
  // Polled every 50 ms until the deadline, and not a poll beyond it.
  EXPECT_EQ(clock.Elapsed(), seconds(20));
  EXPECT_EQ(clock.sleeps(), std::vector<nanoseconds>(400, milliseconds(50)));
}

}  // namespace
}  // namespace dfbench::engines
