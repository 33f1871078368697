#include "cli/setup_flags.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

// DFBENCH_PROVIDER chooses the provider when no flag does: cleared for each test.
class SetupFlagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* v = std::getenv("DFBENCH_PROVIDER")) saved_ = v;
    unsetenv("DFBENCH_PROVIDER");
  }
  void TearDown() override {
    if (saved_) setenv("DFBENCH_PROVIDER", saved_->c_str(), 1);
  }

 private:
  std::optional<std::string> saved_;
};

scenarios::SetupOptions SetupOf(const std::vector<std::string>& args) {
  const auto parsed = ParseFlags("setup", &AddSetupFlags, args);
  return ToSetupCommandOptions(*parsed, parsed.sub);
}

const std::vector<std::string> kSshSetup = {"--provider", "ssh",      "--server",   "10.0.0.1",
                                            "--client",   "10.0.0.2", "--ssh-user", "ubuntu"};

std::vector<std::string> SshSetup(std::vector<std::string> args) {
  args.insert(args.begin(), kSshSetup.begin(), kSshSetup.end());
  return args;
}

void ExpectSetupUsage(const std::vector<std::string>& args, const std::string& message) {
  ExpectExitError([&] { return SetupOf(args); }, core::ErrorKind::kUsage, message);
}

TEST_F(SetupFlagsTest, DefaultsAreALocalSetupOfThreeEngines) {
  const auto o = SetupOf({});
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
  const auto o = SetupOf({"--id", "bench1", "--engines", "redis,memcached", "--redis_binary",
                          "/opt/redis-server", "--memcached_version", "system", "--port", "7001",
                          "--no-pin", "--force"});
  EXPECT_EQ(o.id, "bench1");
  ASSERT_EQ(o.engines.size(), 2U);
  EXPECT_EQ(o.engines[1]->name, "memcached");
  EXPECT_EQ(o.binaries.at("redis"), "/opt/redis-server");
  EXPECT_EQ(o.versions.at("memcached").kind, engines::VersionSpec::Kind::kSystem);
  EXPECT_EQ(o.engine_port, 7001);
  EXPECT_FALSE(o.pin_cpus);
  EXPECT_TRUE(o.if_corrupt.force);
  EXPECT_EQ(SetupOf({"--dfly-version", "latest"}).versions.at("dragonfly").kind,
            engines::VersionSpec::Kind::kLatest);
}

TEST_F(SetupFlagsTest, SshHostsLandAsTheSetupsHosts) {
  const auto o =
      SetupOf(SshSetup({"--replica", "10.0.0.3", "--server-private-ip", "192.168.0.1", "--ssh-key",
                        "/k/id_rsa", "--ssh-port", "2222", "--tune-network"}));
  EXPECT_EQ(o.provider, state::ProviderKind::kSsh);
  ASSERT_EQ(o.ssh.hosts.size(), 3U);
  EXPECT_EQ(o.ssh.hosts[0].role, "server");
  EXPECT_EQ(o.ssh.hosts[0].address, "10.0.0.1");
  EXPECT_EQ(o.ssh.hosts[0].private_address, "192.168.0.1");
  EXPECT_EQ(o.ssh.hosts[1].address, "10.0.0.2");
  EXPECT_EQ(o.ssh.hosts[2].role, "replica-0");
  EXPECT_EQ(o.ssh.user, "ubuntu");
  EXPECT_EQ(o.ssh.key_path, "/k/id_rsa");
  EXPECT_EQ(o.ssh.port, 2222);
  EXPECT_TRUE(o.tune_network);
}

TEST_F(SetupFlagsTest, ARemoteClientGetsTheToolsAsAsked) {
  using providers::ToolNeed;
  const auto plain = SetupOf(SshSetup({}));
  EXPECT_EQ(plain.client_tools.memtier, ToolNeed::kIfBuildable);
  EXPECT_EQ(plain.client_tools.dfly_bench, ToolNeed::kIfBuildable);
  EXPECT_EQ(plain.client_tools.dfly_bench_ref, "main");
  const auto memtier = SetupOf(SshSetup({"--load-generator", "memtier"}));
  EXPECT_EQ(memtier.client_tools.memtier, ToolNeed::kRequired);
  EXPECT_EQ(memtier.client_tools.dfly_bench, ToolNeed::kNone);
  const auto builtin = SetupOf(SshSetup({"--load-generator", "builtin"}));
  EXPECT_FALSE(builtin.client_tools.any());
  const auto ref =
      SetupOf(SshSetup({"--load-generator", "builtin", "--dfly-bench-ref", "v1.30.0"}));
  EXPECT_EQ(ref.client_tools.dfly_bench, ToolNeed::kRequired);
  EXPECT_EQ(ref.client_tools.dfly_bench_ref, "v1.30.0");
  const auto bad_ref = ExitErrorOf([] { return SetupOf(SshSetup({"--dfly-bench-ref", "-x"})); });
  ASSERT_TRUE(bad_ref.has_value());
  EXPECT_EQ(bad_ref->kind, core::ErrorKind::kUsage);
}

TEST_F(SetupFlagsTest, AFlagGivenWithTheWrongProviderIsRefusedWithItsAdvice) {
  ExpectSetupUsage({"--server", "10.0.0.1"},
                   "--server needs --provider ssh (the local provider uses this machine)");
  ExpectSetupUsage({"--provider", "aws", "--ssh-key", "/k"},
                   "--ssh-key needs --provider ssh (the aws provider launches its hosts and "
                   "makes their key)");
  ExpectSetupUsage(SshSetup({"--region", "eu-west-1"}),
                   "--region is an AWS fleet flag: it needs --provider aws, not --provider ssh");
  ExpectSetupUsage(
      {"--provider", "local", "--ssh-wait", "1m"},
      "--ssh-wait is an AWS fleet flag: it needs --provider aws, not --provider local");
  ExpectSetupUsage({"--load-generator", "memtier"},
                   "--load-generator memtier needs a remote client (--provider ssh); on this "
                   "machine install the tool yourself and pass its path to run");
  ExpectSetupUsage({"--dfly-bench-ref", "main"},
                   "--dfly-bench-ref needs a remote client (--provider ssh); on this machine "
                   "install the tool yourself and pass its path to run");
  ExpectSetupUsage({"--provider", "ssh", "--server", "10.0.0.1"},
                   "--provider ssh needs --server HOST, --client HOST and --ssh-user USER");
  // What each provider takes is accepted there.
  EXPECT_EQ(SetupOf({"--load-generator", "builtin"}).provider, state::ProviderKind::kLocal);
  EXPECT_EQ(SetupOf({"--provider", "local", "--replicas", "1"}).provider,
            state::ProviderKind::kLocal);
  EXPECT_EQ(SetupOf({"--replicas", "1"}).provider, state::ProviderKind::kAws);  // a fleet flag
  EXPECT_EQ(SetupOf({"--region", "eu-west-1"}).provider, state::ProviderKind::kAws);
  EXPECT_EQ(SetupOf({"--provider", "aws", "--ssh-user", "admin"}).ssh.user, "admin");
}

TEST_F(SetupFlagsTest, AWrongEngineComesBeforeTheProvidersRules) {
  const auto error = ExitErrorOf([] { return SetupOf({"--engines", "redix", "--server", "x"}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, core::ErrorKind::kUsage);
  EXPECT_NE(error->message.find("redix"), std::string::npos) << error->message;
  EXPECT_NE(ParseErrorOf("setup", &AddSetupFlags, {"--provider", "gcp"}).find("gcp"),
            std::string::npos);
}

}  // namespace
}  // namespace dfbench::cli
