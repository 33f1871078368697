#include "cli/quickstart_flags.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>

#include "cli/flags_test_support.h"

namespace dfbench::cli {
namespace {

// DFBENCH_PROVIDER chooses the provider when no flag does: each test sets it or clears it.
class QuickstartFlagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* v = std::getenv("DFBENCH_PROVIDER")) saved_ = v;
    unsetenv("DFBENCH_PROVIDER");
  }
  void TearDown() override {
    if (saved_) {
      setenv("DFBENCH_PROVIDER", saved_->c_str(), 1);
    } else {
      unsetenv("DFBENCH_PROVIDER");
    }
  }

 private:
  std::optional<std::string> saved_;
};

QuickstartOptions QuickstartOf(const std::vector<std::string>& args) {
  const auto parsed = ParseFlags("quickstart", &AddQuickstartFlags, args);
  return ToQuickstartOptions(*parsed, parsed.sub);
}

const std::vector<std::string> kSshHosts = {"--provider", "ssh", "--server",   "s1",
                                            "--client",   "c1",  "--ssh-user", "bench"};

std::vector<std::string> OnSsh(std::vector<std::string> args) {
  args.insert(args.begin(), kSshHosts.begin(), kSshHosts.end());
  return args;
}

TEST_F(QuickstartFlagsTest, TheLocalProfileFillsWhatWasNotGiven) {
  const auto o = QuickstartOf({});
  EXPECT_EQ(o.setup.provider, state::ProviderKind::kLocal);
  EXPECT_EQ(o.run.requests, kLocalProfileRequests);
  EXPECT_EQ(o.run.warmup_requests, kLocalProfileWarmupRequests);
  EXPECT_EQ(o.run.cooldown, std::chrono::seconds(5));
  EXPECT_EQ(o.run.load.threads, 4);  // the load itself is the reference's
  EXPECT_EQ(o.run.load.clients, 50);
  const auto given = QuickstartOf({"--memtier-requests", "200"});
  EXPECT_EQ(given.run.requests, 200U);
  EXPECT_EQ(given.run.warmup_requests, kLocalProfileWarmupRequests);
  const auto all =
      QuickstartOf({"--memtier-requests", "300", "--warmup-requests", "30", "--cooldown", "1s"});
  EXPECT_EQ(all.run.requests, 300U);
  EXPECT_EQ(all.run.warmup_requests, 30U);
  EXPECT_EQ(all.run.cooldown, std::chrono::seconds(1));
}

TEST_F(QuickstartFlagsTest, OffThisMachineTheReferencesDefaultsHold) {
  const auto o = QuickstartOf(OnSsh({}));
  EXPECT_EQ(o.setup.provider, state::ProviderKind::kSsh);
  EXPECT_EQ(o.run.requests, 1000000U);
  EXPECT_EQ(o.run.warmup_requests, 100000U);
  EXPECT_EQ(o.run.cooldown, std::chrono::seconds(30));
  ASSERT_EQ(o.setup.ssh.hosts.size(), 2U);
  EXPECT_EQ(o.setup.ssh.hosts[0].address, "s1");
  EXPECT_EQ(o.setup.ssh.user, "bench");
}

TEST_F(QuickstartFlagsTest, SetupOptionsSkipMissingEnginesAndTakeTheTargetFlags) {
  const auto o = QuickstartOf({"--id", "q1", "--engines", "redis,valkey", "--redis_binary",
                               "/opt/redis-server", "--valkey_version", "latest", "--port", "7000",
                               "--no-pin", "--replicas", "1"});
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
  const auto built = QuickstartOf(OnSsh({"--load-generator", "memtier"}));
  EXPECT_EQ(built.setup.client_tools.memtier, providers::ToolNeed::kRequired);
  EXPECT_EQ(built.setup.client_tools.dfly_bench, providers::ToolNeed::kNone);
  EXPECT_EQ(built.driver->Name(), "memtier");
  const auto given =
      QuickstartOf(OnSsh({"--load-generator", "memtier", "--memtier-binary", "/opt/memtier"}));
  EXPECT_EQ(given.setup.client_tools.memtier, providers::ToolNeed::kNone);
  // On this machine there is nothing to build: the tool is found as it is.
  EXPECT_EQ(QuickstartOf({"--load-generator", "memtier"}).setup.client_tools.memtier,
            providers::ToolNeed::kNone);
}

TEST_F(QuickstartFlagsTest, AFlagOfAnotherProviderIsRefusedWithItsAdvice) {
  ExpectExitError(
      [] {
        return QuickstartOf({"--server", "s1"});
      },
      core::ErrorKind::kUsage,
      "--server needs --provider ssh (the local provider uses this machine)");
  ExpectExitError(
      [] {
        return QuickstartOf({"--provider", "local", "--region", "eu-west-1"});
      },
      core::ErrorKind::kUsage,
      "--region is an AWS fleet flag: it needs --provider aws, not --provider local");
  ExpectExitError(
      [] {
        return QuickstartOf(OnSsh({"--replicas", "1"}));
      },
      core::ErrorKind::kUsage,
      "--replicas is an AWS fleet flag: it needs --provider aws, not --provider ssh");
  ExpectExitError(
      [] {
        return QuickstartOf({"--provider", "ssh", "--server", "s1"});
      },
      core::ErrorKind::kUsage,
      "--provider ssh needs --server HOST, --client HOST and --ssh-user USER");
}

TEST_F(QuickstartFlagsTest, AFleetFlagOrTheEnvironmentChoosesTheProvider) {
  EXPECT_EQ(QuickstartOf({"--server-instance", "c6i.large"}).setup.provider,
            state::ProviderKind::kAws);
  setenv("DFBENCH_PROVIDER", "aws", 1);
  EXPECT_EQ(QuickstartOf({}).setup.provider, state::ProviderKind::kAws);
  EXPECT_EQ(QuickstartOf({"--provider", "local"}).setup.provider, state::ProviderKind::kLocal);
  setenv("DFBENCH_PROVIDER", "cloud", 1);
  const auto error = ExitErrorOf([] { return QuickstartOf({}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, core::ErrorKind::kUsage);
  EXPECT_EQ(error->message.rfind("DFBENCH_PROVIDER=cloud: use ", 0), 0U) << error->message;
}

TEST_F(QuickstartFlagsTest, AWrongEngineIsReportedBeforeAnyProviderRule) {
  const auto error = ExitErrorOf([] {
    return QuickstartOf({"--engines", "redix", "--server", "s"});
  });
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->message.find("redix"), std::string::npos) << error->message;
}

}  // namespace
}  // namespace dfbench::cli
