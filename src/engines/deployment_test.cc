// Deployments against real redis-server on this machine: one process, and a cluster of shards
// formed, checked and stopped whole.
#include "engines/deployment.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <set>
#include <thread>

#include "core/cpu_share.h"
#include "core/files.h"
#include "hosts/local_host.h"
#include "protocol/blocking_client.h"
#include "support/scoped_temp_dir.h"
#include "support/wait_until.h"

namespace dfbench::engines {
namespace {

TEST(CpuShare, SplitsTheCpusEvenlyOrSharesThemRoundRobin) {
  const std::vector<int> six = {2, 3, 4, 5, 6, 7};
  EXPECT_EQ(core::CpuShare(six, 0, 3), (std::vector<int>{2, 3}));
  EXPECT_EQ(core::CpuShare(six, 2, 3), (std::vector<int>{6, 7}));
  EXPECT_EQ(core::CpuShare(six, 1, 4), (std::vector<int>{3, 4}));  // 1, 2, 1, 2 of them
  EXPECT_EQ(core::CpuShare({0, 1}, 2, 3), (std::vector<int>{0}));
  EXPECT_TRUE(core::CpuShare({}, 1, 3).empty());
}

class DeploymentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    host_ = std::make_unique<hosts::LocalHost>(dir_ / "work");
    binary_ = core::FindOnPath("redis-server").value_or("");
    ASSERT_FALSE(binary_.empty()) << "redis-server is not installed";
  }
  testing::ScopedTempDir dir_{"deployment"};
  std::unique_ptr<hosts::LocalHost> host_;
  std::string binary_;
};

TEST_F(DeploymentTest, OneProcessIsNotACluster) {
  auto d = Deployment::Start(*host_, *FindEngine("redis"), binary_, {});
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->processes().size(), 1u);
  EXPECT_FALSE(d->cluster());
  EXPECT_FALSE(d->tuning().contains("shards"));
  EXPECT_TRUE(d->OnEach(&RunningEngine::HealthCheck));
  EXPECT_TRUE(d->OnEach(&RunningEngine::Stop));
}

TEST_F(DeploymentTest, ThreeShardsFormOneClusterAndStopTogether) {
  auto d = Deployment::Start(*host_, *FindEngine("redis"), binary_, {.redis_shards = 3});
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_EQ(d->processes().size(), 3u);
  EXPECT_TRUE(d->cluster());
  EXPECT_EQ(d->tuning()["shards"], 3);
  std::vector<int> ports;
  std::set<std::string> epochs;
  for (auto& shard : d->processes()) {
    ports.push_back(shard.port());
    auto client =
        protocol::BlockingClient::Connect(shard.address(), shard.port(), std::chrono::seconds(2));
    ASSERT_TRUE(client);
    auto info = client->Command({"CLUSTER", "INFO"});
    ASSERT_TRUE(info);
    EXPECT_EQ(protocol::InfoField(info->str, "cluster_state"), "ok");
    EXPECT_EQ(protocol::InfoField(info->str, "cluster_known_nodes"), "3");
    epochs.insert(protocol::InfoField(info->str, "cluster_my_epoch"));
  }
  EXPECT_EQ(std::set<int>(ports.begin(), ports.end()).size(), 3u);
  // Distinct from the start, so no slot ever changes owner by an epoch collision settling.
  EXPECT_EQ(epochs, (std::set<std::string>{"1", "2", "3"}));
  EXPECT_EQ(d->tuning()["shard_ports"], nlohmann::json(ports));
  EXPECT_TRUE(d->OnEach(&RunningEngine::Flush));
  ASSERT_TRUE(d->OnEach(&RunningEngine::HealthCheck));

  // A shard that dies fails the health check, named.
  ::kill(d->processes()[1].pid(), SIGKILL);
  ASSERT_TRUE(testing::WaitUntil([&] { return !d->Alive(); }, std::chrono::seconds(5),
                                 "the killed shard's exit"));
  auto health = d->OnEach(&RunningEngine::HealthCheck);
  ASSERT_FALSE(health);
  EXPECT_NE(health.error().message.find("shard 2 (port "), std::string::npos)
      << health.error().message;
  EXPECT_NE(d->LogTail().find("shard 2"), std::string::npos);
  d->OnEach(&RunningEngine::Stop);
  for (auto& shard : d->processes()) EXPECT_FALSE(shard.Alive());
}

}  // namespace
}  // namespace dfbench::engines
