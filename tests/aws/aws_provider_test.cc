// The aws provider end to end against the AWS emulator with its instances on the multi-host test
// bed (MOTO_BENCH_TESTBED): each instance of the stack is one netns SSH host at 10.200.0.x, with
// the stack's key pair installed for root, so setup logs in and installs real engines. Skipped,
// saying why, without the bed or python3's moto.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "aws/cloudformation.h"
#include "aws/credentials.h"
#include "core/log.h"
#include "emulated_fleet_test.h"
#include "engines/engine.h"
#include "providers/provider.h"
#include "scenarios/setup/lifecycle.h"
#include "ssh_testbed.h"
#include "state/state.h"
#include "support/test_data.h"

namespace dfbench {
namespace {

namespace fs = std::filesystem;
using testing::Contains;

class AwsProviderTest : public testing::EmulatedFleetTest {
 protected:
  void SetUp() override {
    EmulatedFleetTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    home_ = fs::path(::testing::TempDir()) / ("dfbench-aws-provider-" + std::to_string(getpid()));
    fs::remove_all(home_);
    ::setenv("DFBENCH_HOME", home_.c_str(), 1);
  }

  void TearDown() override {
    std::error_code ec;
    if (!home_.empty()) fs::remove_all(home_, ec);
  }

  scenarios::SetupOptions Options(const std::string& id, int replicas) const {
    scenarios::SetupOptions o{.id = id, .provider = state::ProviderKind::kAws};
    o.engines = {engines::FindEngine("redis")};
    o.ssh.user = testing::Testbed::kUser;
    o.aws.replicas = replicas;
    o.aws.ssh_cidr = "10.200.0.1/32";  // where the bed's hosts see SSH come from
    return o;
  }

  fs::path home_;
};

TEST_F(AwsProviderTest, ProvisionConnectDestroy) {
  auto made = scenarios::CreateSetup(Options("fleet", 1));
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_EQ(made->provider, state::ProviderKind::kAws);
  EXPECT_EQ(made->region, "us-east-1");
  EXPECT_TRUE(fs::exists(state::SetupDir("fleet") / "stack.yaml"));

  auto st = state::Load("fleet");
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_EQ(st->status, state::SetupStatus::kReady);
  ASSERT_TRUE(st->provider_data.aws && st->provider_data.ssh);
  const state::AwsRecord& a = *st->provider_data.aws;
  EXPECT_EQ(a.stack_name, "dfbench-fleet");
  EXPECT_EQ(a.account.size(), 12u) << a.account;
  EXPECT_TRUE(Contains(a.stack_id, "dfbench-fleet")) << a.stack_id;
  EXPECT_EQ(a.ubuntu_version, "22.04");
  ASSERT_EQ(a.instances.size(), 3u);
  EXPECT_EQ(a.instances[0].role.Name(), "server");
  EXPECT_EQ(a.instances[0].type, "c6i.2xlarge");
  EXPECT_EQ(a.instances[0].arch, "x86_64");
  EXPECT_EQ(a.instances[2].role.Name(), "replica-0");
  for (const auto& i : a.instances) {
    EXPECT_EQ(i.id.rfind("i-", 0), 0u) << i.id;
    EXPECT_EQ(i.public_ip.rfind("10.200.0.", 0), 0u) << i.public_ip;
    EXPECT_EQ(i.private_ip, i.public_ip);
  }
  const state::SshRecord& ssh = *st->provider_data.ssh;
  EXPECT_EQ(ssh.user, "root");
  EXPECT_TRUE(ssh.key_generated);
  ASSERT_EQ(ssh.hosts.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ssh.hosts[i].role, a.instances[i].role);
    EXPECT_EQ(ssh.hosts[i].address, a.instances[i].public_ip);
    EXPECT_EQ(ssh.hosts[i].private_address, a.instances[i].private_ip);
  }
  EXPECT_EQ(st->hosts.size(), 3u);
  ASSERT_NE(st->FindEngine("redis"), nullptr);
  const fs::path key = ssh.key_path;
  EXPECT_TRUE(fs::exists(key));

  auto provider = providers::MakeProvider(state::ProviderKind::kAws);
  {
    auto fleet = provider->Connect(*st);
    ASSERT_TRUE(fleet) << fleet.error().message;
    EXPECT_EQ(fleet->replicas.size(), 1u);
    auto version = fleet->server->Run({.argv = {"redis-server", "--version"}});
    ASSERT_TRUE(version) << version.error().message;
    EXPECT_TRUE(Contains(version->out, "Redis server")) << version->out;
  }

  ASSERT_TRUE(scenarios::DestroySetup("fleet"));
  auto gone = aws::DescribeStack(testing::AwsEmulator::Client(), "dfbench-fleet");
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, core::ErrorKind::kNotFound) << gone.error().message;
  EXPECT_FALSE(fs::exists(key));
  EXPECT_FALSE(fs::exists(key.parent_path()));

  // The provider asked again: the stack is gone, which is success with a note.
  auto destroyed = state::Load("fleet");
  ASSERT_TRUE(destroyed);
  ::testing::internal::CaptureStderr();
  auto again = provider->Destroy(&*destroyed);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(Contains(err, "the stack dfbench-fleet is already gone")) << err;
}

// Five instances on three hosts: the fourth cannot launch, CloudFormation deletes the stack, and
// the same setup succeeds once it asks for what fits.
TEST_F(AwsProviderTest, AFailingStackIsDeletedAndTheSetupCanBeRunAgain) {
  auto failed = scenarios::CreateSetup(Options("retry", 3));
  ASSERT_FALSE(failed);
  const std::string& why = failed.error().message;
  EXPECT_EQ(failed.error().kind, core::ErrorKind::kEnvironment) << why;
  EXPECT_TRUE(Contains(why, "the stack dfbench-retry failed: Replica")) << why;
  EXPECT_TRUE(Contains(why, "Instance (AWS::EC2::Instance)")) << why;
  EXPECT_TRUE(Contains(why, "InsufficientInstanceCapacity")) << why;
  EXPECT_TRUE(Contains(why, "it was deleted")) << why;
  auto gone = aws::DescribeStack(testing::AwsEmulator::Client(), "dfbench-retry");
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, core::ErrorKind::kNotFound) << gone.error().message;
  auto st = state::Load("retry");
  ASSERT_TRUE(st);
  EXPECT_EQ(st->status, state::SetupStatus::kFailed);
  const fs::path key = state::SetupDir("retry") / "ssh" / "id_rsa";
  EXPECT_TRUE(fs::exists(key));
  EXPECT_TRUE(fs::exists(state::SetupDir("retry") / "stack.yaml"));

  auto retried = scenarios::CreateSetup(Options("retry", 1));
  ASSERT_TRUE(retried) << retried.error().message;
  ASSERT_TRUE(retried->provider_data.aws && retried->provider_data.ssh);
  EXPECT_EQ(retried->provider_data.aws->instances.size(), 3u);
  EXPECT_EQ(retried->provider_data.ssh->key_path, key.string());
  ASSERT_TRUE(scenarios::DestroySetup("retry"));
  EXPECT_FALSE(fs::exists(key));
}

}  // namespace
}  // namespace dfbench
