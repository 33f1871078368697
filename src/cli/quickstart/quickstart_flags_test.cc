#include "cli/quickstart/quickstart_flags.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

using QuickstartFlagsTest = ProviderEnvTest;

const CommandLine<QuickstartFlags, &AddQuickstartFlags, &ToQuickstartOptions> kQuickstart{
    "quickstart"};

TEST_F(QuickstartFlagsTest, TheLocalProfileFillsWhatWasNotGiven) {
  const auto o = kQuickstart.OptionsOf({});
  EXPECT_EQ(o.setup.provider, state::ProviderKind::kLocal);
  EXPECT_EQ(o.run.requests, kLocalProfileRequests);
  EXPECT_EQ(o.run.warmup_requests, kLocalProfileWarmupRequests);
  EXPECT_EQ(o.run.cooldown, std::chrono::seconds(5));
  EXPECT_EQ(o.run.load.threads, 4);  // the load itself is the reference's
  EXPECT_EQ(o.run.load.clients, 50);
  const auto given = kQuickstart.OptionsOf({"--memtier-requests", "200"});
  EXPECT_EQ(given.run.requests, 200U);
  EXPECT_EQ(given.run.warmup_requests, kLocalProfileWarmupRequests);
  const auto all = kQuickstart.OptionsOf(
      {"--memtier-requests", "300", "--warmup-requests", "30", "--cooldown", "1s"});
  EXPECT_EQ(all.run.requests, 300U);
  EXPECT_EQ(all.run.warmup_requests, 30U);
  EXPECT_EQ(all.run.cooldown, std::chrono::seconds(1));
}

TEST_F(QuickstartFlagsTest, OffThisMachineTheReferencesDefaultsHold) {
  const auto o = kQuickstart.OptionsOf(OnSshHosts({}));
  EXPECT_EQ(o.setup.provider, state::ProviderKind::kSsh);
  EXPECT_EQ(o.run.requests, 1000000U);
  EXPECT_EQ(o.run.warmup_requests, 100000U);
  EXPECT_EQ(o.run.cooldown, std::chrono::seconds(30));
  ASSERT_EQ(o.setup.ssh.hosts.size(), 2U);
  EXPECT_EQ(o.setup.ssh.hosts[0].address, "10.0.0.1");
  EXPECT_EQ(o.setup.ssh.user, "ubuntu");
}

TEST_F(QuickstartFlagsTest, SetupOptionsSkipMissingEnginesAndTakeTheTargetFlags) {
  const auto o = kQuickstart.OptionsOf({"--id", "q1", "--engines", "redis,valkey", "--redis_binary",
                                        "/opt/redis-server", "--valkey_version", "latest", "--port",
                                        "7000", "--no-pin", "--replicas", "1"});
  EXPECT_EQ(o.setup.id, "q1");
  EXPECT_TRUE(o.setup.skip_missing_engines);
  ASSERT_EQ(o.setup.engines.size(), 2U);
  EXPECT_EQ(o.setup.engines[0]->name, "redis");
  ASSERT_EQ(o.run.engines.size(), 2U);
  EXPECT_EQ(o.setup.binaries.at("redis"), "/opt/redis-server");
  EXPECT_EQ(o.setup.versions.at("valkey").kind, engines::VersionSpec::Kind::kLatest);
  EXPECT_TRUE(o.run.versions.empty());  // quickstart installs through its setup
  EXPECT_EQ(o.setup.engine_port, 7000);
  EXPECT_FALSE(o.setup.pin_cpus);
  EXPECT_FALSE(o.setup.client_tools.any());
  EXPECT_EQ(o.driver->Name(), "builtin");
}

TEST_F(QuickstartFlagsTest, MemtierOnARemoteClientIsBuiltThereUnlessABinaryIsGiven) {
  const auto built = kQuickstart.OptionsOf(OnSshHosts({"--load-generator", "memtier"}));
  EXPECT_EQ(built.setup.client_tools.memtier, providers::ToolNeed::kRequired);
  EXPECT_EQ(built.setup.client_tools.dfly_bench, providers::ToolNeed::kNone);
  EXPECT_EQ(built.driver->Name(), "memtier");
  const auto given = kQuickstart.OptionsOf(
      OnSshHosts({"--load-generator", "memtier", "--memtier-binary", "/opt/memtier"}));
  EXPECT_EQ(given.setup.client_tools.memtier, providers::ToolNeed::kNone);
  // On this machine there is nothing to build: the tool is found as it is.
  EXPECT_EQ(kQuickstart.OptionsOf({"--load-generator", "memtier"}).setup.client_tools.memtier,
            providers::ToolNeed::kNone);
}

TEST_F(QuickstartFlagsTest, AFlagOfAnotherProviderIsRefusedWithItsAdvice) {
  kQuickstart.ExpectUsage({"--server", "s1"},
                          "--server needs --provider ssh (the local provider uses this machine)");
  kQuickstart.ExpectUsage(
      {"--provider", "local", "--region", "eu-west-1"},
      "--region is an AWS fleet flag: it needs --provider aws, not --provider local");
  kQuickstart.ExpectUsage(
      OnSshHosts({"--replicas", "1"}),
      "--replicas is an AWS fleet flag: it needs --provider aws, not --provider ssh");
  kQuickstart.ExpectUsage({"--provider", "ssh", "--server", "s1"},
                          "--provider ssh needs --server HOST, --client HOST and --ssh-user USER");
}

TEST_F(QuickstartFlagsTest, AFleetFlagOrTheEnvironmentChoosesTheProvider) {
  EXPECT_EQ(kQuickstart.OptionsOf({"--server-instance", "c6i.large"}).setup.provider,
            state::ProviderKind::kAws);
  setenv("DFBENCH_PROVIDER", "aws", 1);
  EXPECT_EQ(kQuickstart.OptionsOf({}).setup.provider, state::ProviderKind::kAws);
  EXPECT_EQ(kQuickstart.OptionsOf({"--provider", "local"}).setup.provider,
            state::ProviderKind::kLocal);
  setenv("DFBENCH_PROVIDER", "cloud", 1);
  ExpectUsageErrorStartingWith("DFBENCH_PROVIDER=cloud: use ",
                               [] { return kQuickstart.OptionsOf({}); });
}

TEST_F(QuickstartFlagsTest, AWrongEngineIsReportedBeforeAnyProviderRule) {
  ExpectUsageErrorNaming("redix", [] {
    return kQuickstart.OptionsOf({"--engines", "redix", "--server", "s"});
  });
}

}  // namespace
}  // namespace dfbench::cli
