// The cooldown between engines' turns, slept on a fake clock: the configured time passes between
// turns (none after the last), and none really. And a replica's turn beside its master's, on a
// real redis-server of this machine.
#include "scenarios/frame/engine_turn.h"

#include <gtest/gtest.h>

#include <memory>

#include "core/files.h"
#include "hosts/local_host.h"
#include "support/fake_clock.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::scenarios {
namespace {

using std::chrono::nanoseconds;
using std::chrono::seconds;

TEST(TakeTurns, TheCooldownPassesOnTheClockBetweenTurns) {
  testing::FakeClock clock;
  std::vector<nanoseconds> turn_started;
  ::testing::internal::CaptureStderr();
  const bool interrupted = TakeTurns(
      3, seconds(30),
      [&](size_t) {
        turn_started.push_back(clock.Elapsed());
        return true;
      },
      [] {}, clock);
  const std::string notes = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(interrupted);
  EXPECT_EQ(turn_started, (std::vector<nanoseconds>{seconds(0), seconds(30), seconds(60)}));
  EXPECT_EQ(clock.Elapsed(), seconds(60));
  EXPECT_NE(notes.find("cooling down for 30s before the next engine"), std::string::npos) << notes;
}

TEST(TakeTurns, AFailedTurnEndsTheRunWithoutACooldown) {
  testing::FakeClock clock;
  int turns = 0;
  const bool interrupted = TakeTurns(
      3, seconds(30),
      [&](size_t) {
        ++turns;
        return false;
      },
      [] {}, clock);
  EXPECT_TRUE(interrupted);
  EXPECT_EQ(turns, 1);
  EXPECT_EQ(clock.Elapsed(), seconds(0));
}

class ReplicaTurnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    install_.binary = core::FindOnPath("redis-server").value_or("");
    ASSERT_FALSE(install_.binary.empty()) << "redis-server is not installed";
    // One machine as server and replica, as the local provider's fleet.
    auto host = std::make_shared<hosts::LocalHost>(dir_ / "work");
    auto port = host->FreePort();
    ASSERT_TRUE(port) << port.error().message;
    fleet_.server = host;
    fleet_.replicas = {host};
    fleet_.engine_port = *port;
  }
  testing::ScopedTempDir dir_{"replica_turn"};
  providers::Fleet fleet_;
  state::EngineInstall install_{.name = "redis", .origin = "system", .sha256 = "ab12"};
  const engines::EngineSpec& redis_ = *engines::FindEngine("redis");
};

TEST_F(ReplicaTurnTest, OnTheServersOwnHostTheReplicaTakesAnotherPortAndRecordsItsBuild) {
  results::EngineRecord master_record;
  auto master = EngineTurn::Start(fleet_, install_, redis_, {}, &master_record);
  ASSERT_TRUE(master) << master_record.error;
  results::EngineRecord replica_record;
  auto replica =
      EngineTurn::StartReplica(fleet_, install_, redis_, {}, /*flush=*/true, &replica_record);
  ASSERT_TRUE(replica) << replica_record.error;
  EXPECT_EQ(master->target().port, fleet_.engine_port);
  EXPECT_NE(replica->target().port, fleet_.engine_port);
  EXPECT_EQ(replica_record.version, master_record.version);
  EXPECT_EQ(replica_record.origin, "system");
  EXPECT_EQ(replica_record.sha256, "ab12");
  EXPECT_TRUE(replica->Healthy("the test"));
  replica->Stop();
  master->Stop();
}

TEST_F(ReplicaTurnTest, AFleetWithoutAReplicaHostHasNoReplicaTurn) {
  fleet_.replicas.clear();
  results::EngineRecord record;
  EXPECT_FALSE(EngineTurn::StartReplica(fleet_, install_, redis_, {}, /*flush=*/true, &record));
  EXPECT_EQ(record.error, "the setup has no replica host");
}

}  // namespace
}  // namespace dfbench::scenarios
