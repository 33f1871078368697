#include "cli/setup/setup_flags.h"

#include <gtest/gtest.h>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

using SetupFlagsTest = ProviderEnvTest;

const CommandLine<SetupFlags, &AddSetupFlags, &ToSetupCommandOptions> kSetup{"setup"};

TEST_F(SetupFlagsTest, DefaultsAreALocalSetupOfThreeEngines) {
  const auto o = kSetup.OptionsOf({});
  EXPECT_EQ(o.id, "");  // a timestamp, given by PlanAndConfirm
  EXPECT_EQ(o.provider, state::ProviderKind::kLocal);
  ASSERT_EQ(o.engines.size(), 3U);
  EXPECT_EQ(o.engines[0]->name, "dragonfly");
  EXPECT_TRUE(o.binaries.empty());
  EXPECT_TRUE(o.versions.empty());
  EXPECT_TRUE(o.pin_cpus);
  EXPECT_EQ(o.engine_port, 0);
  EXPECT_FALSE(o.skip_missing_engines);
  EXPECT_FALSE(o.tune_network);
  EXPECT_FALSE(o.client_tools.any());
  EXPECT_FALSE(o.if_corrupt.force);
  EXPECT_EQ(o.if_corrupt.how_to_force, "--force");
}

TEST_F(SetupFlagsTest, EachFlagLandsInItsOption) {
  const auto o = kSetup.OptionsOf({"--id", "bench1", "--engines", "redis,memcached",
                                   "--redis_binary", "/opt/redis-server", "--memcached_version",
                                   "system", "--port", "7001", "--no-pin", "--force"});
  EXPECT_EQ(o.id, "bench1");
  ASSERT_EQ(o.engines.size(), 2U);
  EXPECT_EQ(o.engines[1]->name, "memcached");
  EXPECT_EQ(o.binaries.at("redis"), "/opt/redis-server");
  EXPECT_EQ(o.versions.at("memcached").kind, engines::VersionSpec::Kind::kSystem);
  EXPECT_EQ(o.engine_port, 7001);
  EXPECT_FALSE(o.pin_cpus);
  EXPECT_TRUE(o.if_corrupt.force);
  EXPECT_EQ(kSetup.OptionsOf({"--dfly-version", "latest"}).versions.at("dragonfly").kind,
            engines::VersionSpec::Kind::kLatest);
}

TEST_F(SetupFlagsTest, SshHostsLandAsTheSetupsHosts) {
  const auto o = kSetup.OptionsOf(
      OnSshHosts({"--replica", "10.0.0.3", "--server-private-ip", "192.168.0.1", "--ssh-key",
                  "/k/id_rsa", "--ssh-port", "2222", "--tune-network"}));
  EXPECT_EQ(o.provider, state::ProviderKind::kSsh);
  ASSERT_EQ(o.ssh.hosts.size(), 3U);
  EXPECT_EQ(o.ssh.hosts[0].role.Name(), "server");
  EXPECT_EQ(o.ssh.hosts[0].address, "10.0.0.1");
  EXPECT_EQ(o.ssh.hosts[0].private_address, "192.168.0.1");
  EXPECT_EQ(o.ssh.hosts[1].address, "10.0.0.2");
  EXPECT_EQ(o.ssh.hosts[2].role.Name(), "replica-0");
  EXPECT_EQ(o.ssh.user, "ubuntu");
  EXPECT_EQ(o.ssh.key_path, "/k/id_rsa");
  EXPECT_EQ(o.ssh.port, 2222);
  EXPECT_TRUE(o.tune_network);
}

// Several --client hosts: "client", then "client-2", each with its private address if given.
TEST_F(SetupFlagsTest, SeveralClientHostsTakeNumberedRoles) {
  const auto o =
      kSetup.OptionsOf(OnSshHosts({"--client", "10.0.0.5", "--client-private-ip", "192.168.0.2"}));
  ASSERT_EQ(o.ssh.hosts.size(), 3U);
  EXPECT_EQ(o.ssh.hosts[1].role.Name(), "client");
  EXPECT_EQ(o.ssh.hosts[1].private_address, "192.168.0.2");
  EXPECT_EQ(o.ssh.hosts[2].role.Name(), "client-2");
  EXPECT_EQ(o.ssh.hosts[2].address, "10.0.0.5");
  EXPECT_EQ(o.ssh.hosts[2].private_address, "");
  ExpectUsageError("more --client-private-ip than --client", [] {
    return kSetup.OptionsOf(
        OnSshHosts({"--client-private-ip", "1.2.3.4", "--client-private-ip", "1.2.3.5"}));
  });
}

TEST_F(SetupFlagsTest, ARemoteClientGetsTheToolsAsAsked) {
  using providers::ToolNeed;
  const auto plain = kSetup.OptionsOf(OnSshHosts({}));
  EXPECT_EQ(plain.client_tools.memtier, ToolNeed::kIfBuildable);
  EXPECT_EQ(plain.client_tools.dfly_bench, ToolNeed::kIfBuildable);
  EXPECT_EQ(plain.client_tools.dfly_bench_ref, "main");
  const auto memtier = kSetup.OptionsOf(OnSshHosts({"--load-generator", "memtier"}));
  EXPECT_EQ(memtier.client_tools.memtier, ToolNeed::kRequired);
  EXPECT_EQ(memtier.client_tools.dfly_bench, ToolNeed::kNone);
  const auto builtin = kSetup.OptionsOf(OnSshHosts({"--load-generator", "builtin"}));
  EXPECT_FALSE(builtin.client_tools.any());
  const auto ref =
      kSetup.OptionsOf(OnSshHosts({"--load-generator", "builtin", "--dfly-bench-ref", "v1.30.0"}));
  EXPECT_EQ(ref.client_tools.dfly_bench, ToolNeed::kRequired);
  EXPECT_EQ(ref.client_tools.dfly_bench_ref, "v1.30.0");
  ExpectUsageErrorOf([] { return kSetup.OptionsOf(OnSshHosts({"--dfly-bench-ref", "-x"})); });
}

TEST_F(SetupFlagsTest, AFlagGivenWithTheWrongProviderIsRefusedWithItsAdvice) {
  kSetup.ExpectUsage({"--server", "10.0.0.1"},
                     "--server needs --provider ssh (the local provider uses this machine)");
  kSetup.ExpectUsage({"--provider", "aws", "--ssh-key", "/k"},
                     "--ssh-key needs --provider ssh (the aws provider launches its hosts and "
                     "makes their key)");
  kSetup.ExpectUsage(OnSshHosts({"--region", "eu-west-1"}),
                     "--region is an AWS fleet flag: it needs --provider aws, not --provider ssh");
  kSetup.ExpectUsage(
      {"--provider", "local", "--ssh-wait", "1m"},
      "--ssh-wait is an AWS fleet flag: it needs --provider aws, not --provider local");
  kSetup.ExpectUsage({"--load-generator", "memtier"},
                     "--load-generator memtier needs a remote client (--provider ssh); on this "
                     "machine install the tool yourself and pass its path to run");
  kSetup.ExpectUsage({"--dfly-bench-ref", "main"},
                     "--dfly-bench-ref needs a remote client (--provider ssh); on this machine "
                     "install the tool yourself and pass its path to run");
  kSetup.ExpectUsage({"--provider", "ssh", "--server", "10.0.0.1"},
                     "--provider ssh needs --server HOST, --client HOST and --ssh-user USER");
  // What each provider takes is accepted there.
  EXPECT_EQ(kSetup.OptionsOf({"--load-generator", "builtin"}).provider,
            state::ProviderKind::kLocal);
  EXPECT_EQ(kSetup.OptionsOf({"--provider", "local", "--replicas", "1"}).provider,
            state::ProviderKind::kLocal);
  EXPECT_EQ(kSetup.OptionsOf({"--replicas", "1"}).provider,
            state::ProviderKind::kAws);  // a fleet flag
  EXPECT_EQ(kSetup.OptionsOf({"--region", "eu-west-1"}).provider, state::ProviderKind::kAws);
  EXPECT_EQ(kSetup.OptionsOf({"--provider", "aws", "--ssh-user", "admin"}).ssh.user, "admin");
}

TEST_F(SetupFlagsTest, AWrongEngineComesBeforeTheProvidersRules) {
  ExpectUsageErrorNaming("redix", [] {
    return kSetup.OptionsOf({"--engines", "redix", "--server", "x"});
  });
  EXPECT_NE(kSetup.ParseErrorOf({"--provider", "gcp"}).find("gcp"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::cli
