#include "providers/local_provider.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include "core/files.h"
#include "core/subprocess.h"
#include "hosts/local_host.h"
#include "support/dfbench_home.h"

namespace dfbench::providers {
namespace {

class LocalProviderTest : public testing::DfbenchHomeTest {
 protected:
  void SetUp() override {
    DfbenchHomeTest::SetUp();
    if (const char* path = getenv("PATH")) saved_path_ = path;
    state_.id = "test-setup";
  }
  void TearDown() override {
    setenv("PATH", saved_path_.c_str(), 1);
    DfbenchHomeTest::TearDown();
  }

  // Leaves PATH with one empty directory, so no engine is found by name.
  void EmptyPath() {
    auto bin = home_ / "empty-bin";
    std::filesystem::create_directories(bin);
    setenv("PATH", bin.c_str(), 1);
  }

  static SetupRequest Request(const std::string& engines_csv) {
    auto list = engines::ParseEngineList(engines_csv);
    EXPECT_TRUE(list);
    return SetupRequest{.engines = *list};
  }

  std::string saved_path_;
  state::SetupState state_;
  LocalProvider provider_;
};

TEST(MakeProvider, EachKindIsTheProviderOfThatName) {
  for (const auto& [kind, name] : state::kProviderNames.names) {
    auto provider = MakeProvider(kind);
    EXPECT_EQ(provider->Kind(), kind);
    EXPECT_EQ(provider->Name(), name);
  }
}

TEST(SplitCpus, HalvesTheAllowedCpus) {
  EXPECT_TRUE(SplitCpus({}).server.empty());
  EXPECT_TRUE(SplitCpus({3}).server.empty());
  EXPECT_TRUE(SplitCpus({3}).client.empty());
  EXPECT_EQ(SplitCpus({0, 1}).server, std::vector<int>({0}));
  EXPECT_EQ(SplitCpus({0, 1}).client, std::vector<int>({1}));
  EXPECT_EQ(SplitCpus({0, 1, 2}).server, std::vector<int>({0}));
  EXPECT_EQ(SplitCpus({0, 1, 2}).client, std::vector<int>({1, 2}));
  EXPECT_EQ(SplitCpus({2, 3, 6, 7}).server, std::vector<int>({2, 3}));
  EXPECT_EQ(SplitCpus({2, 3, 6, 7}).client, std::vector<int>({6, 7}));
}

TEST(SplitCpusWithReplicas, GivesEveryRoleItsOwnShare) {
  EXPECT_FALSE(SplitCpusWithReplicas({0, 1}, 1));
  auto three = SplitCpusWithReplicas({0, 1, 2}, 1);
  ASSERT_TRUE(three);
  EXPECT_EQ(three->server, std::vector<int>({0}));
  EXPECT_EQ(three->replicas, std::vector<std::vector<int>>({{1}}));
  EXPECT_EQ(three->client, std::vector<int>({2}));
  auto eight = SplitCpusWithReplicas({0, 1, 2, 3, 4, 5, 6, 7}, 2);
  ASSERT_TRUE(eight);
  EXPECT_EQ(eight->server, std::vector<int>({0, 1}));
  EXPECT_EQ(eight->replicas, std::vector<std::vector<int>>({{2, 3}, {4, 5}}));
  EXPECT_EQ(eight->client, std::vector<int>({6, 7}));
  auto odd = SplitCpusWithReplicas({0, 1, 2, 3, 4}, 1);
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->client, std::vector<int>({2, 3, 4}));  // the leftover goes to the client
}

TEST_F(LocalProviderTest, RecordsReplicaRoles) {
  SetupRequest request = Request("redis");
  request.local_replicas = 2;
  ASSERT_TRUE(provider_.Provision(&state_, request));
  const auto* server = state_.FindHost(core::Role::Server());
  const auto* replica0 = state_.FindHost(core::Role::Replica(0));
  ASSERT_NE(replica0, nullptr);
  ASSERT_NE(state_.FindHost(core::Role::Replica(1)), nullptr);
  const auto allowed = hosts::AllowedCpus();
  if (allowed.size() >= 4) {
    EXPECT_FALSE(replica0->cpus.empty());
    EXPECT_NE(replica0->cpus, server->cpus);
  } else if (server != nullptr) {
    EXPECT_EQ(replica0->cpus, server->cpus);  // too few CPUs: shared with the master
  }
  auto fleet = provider_.Connect(state_);
  ASSERT_TRUE(fleet) << fleet.error().message;
  ASSERT_EQ(fleet->replicas.size(), 2u);
  ASSERT_EQ(fleet->replica_cpus.size(), 2u);
  EXPECT_EQ(fleet->replica_cpus[0], replica0->cpus);
}

TEST_F(LocalProviderTest, ProvisionsInstalledEngines) {
  auto st = provider_.Provision(&state_, Request("redis,memcached"));
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_EQ(state_.provider, state::ProviderKind::kLocal);
  ASSERT_EQ(state_.engines.size(), 2u);
  const auto* redis = state_.FindEngine("redis");
  ASSERT_NE(redis, nullptr);
  EXPECT_EQ(redis->binary, *core::FindOnPath("redis-server"));
  EXPECT_EQ(redis->version.rfind("Redis server v=", 0), 0u) << redis->version;
  EXPECT_EQ(redis->status, state::InstallStatus::kInstalled);
  const auto* mc = state_.FindEngine("memcached");
  ASSERT_NE(mc, nullptr);
  EXPECT_EQ(mc->version.rfind("memcached ", 0), 0u) << mc->version;
  ASSERT_FALSE(state_.hosts.empty());
  EXPECT_FALSE(state_.hosts[0].cpu_model.empty());
  EXPECT_GT(state_.hosts[0].memory_bytes, 0u);
}

TEST_F(LocalProviderTest, SplitsCpusBetweenServerAndClient) {
  const auto allowed = hosts::AllowedCpus();
  ASSERT_TRUE(provider_.Provision(&state_, Request("redis")));
  if (allowed.size() < 2) {
    ASSERT_EQ(state_.hosts.size(), 1u);
    EXPECT_EQ(state_.hosts[0].role.Name(), "local");
    return;
  }
  const auto* server = state_.FindHost(core::Role::Server());
  const auto* client = state_.FindHost(core::Role::Client());
  ASSERT_NE(server, nullptr);
  ASSERT_NE(client, nullptr);
  EXPECT_FALSE(server->cpus.empty());
  EXPECT_FALSE(client->cpus.empty());
  std::vector<int> both = server->cpus;
  both.insert(both.end(), client->cpus.begin(), client->cpus.end());
  EXPECT_EQ(both, allowed);  // disjoint halves covering every allowed CPU

  auto fleet = provider_.Connect(state_);
  ASSERT_TRUE(fleet) << fleet.error().message;
  EXPECT_EQ(fleet->server, fleet->client);
  EXPECT_EQ(fleet->server_cpus, server->cpus);
  EXPECT_EQ(fleet->client_cpus, client->cpus);
  auto work = fleet->server->WorkDir();
  ASSERT_TRUE(work);
  EXPECT_EQ(*work, (state::SetupDir(state_.id) / "work").string());

  // The recorded engine starts on the fleet, pinned to the server CPUs.
  engines::Tuning tuning{.cpus = fleet->server_cpus};
  auto engine = engines::Start(*fleet->server, *engines::FindEngine("redis"),
                               state_.FindEngine("redis")->binary, tuning);
  ASSERT_TRUE(engine) << engine.error().message;
  EXPECT_TRUE(engine->HealthCheck());
}

TEST_F(LocalProviderTest, NoPinningRecordsOneLocalHost) {
  SetupRequest request = Request("redis");
  request.pin_cpus = false;
  ASSERT_TRUE(provider_.Provision(&state_, request));
  ASSERT_EQ(state_.hosts.size(), 1u);
  EXPECT_EQ(state_.hosts[0].role.Name(), "local");
  EXPECT_TRUE(state_.hosts[0].cpus.empty());
  auto fleet = provider_.Connect(state_);
  ASSERT_TRUE(fleet);
  EXPECT_TRUE(fleet->server_cpus.empty());
  EXPECT_TRUE(fleet->client_cpus.empty());
}

TEST_F(LocalProviderTest, ExplicitBinary) {
  auto link = home_ / "bin" / "my-redis";
  std::filesystem::create_directories(link.parent_path());
  std::filesystem::create_symlink(*core::FindOnPath("redis-server"), link);
  EmptyPath();  // the explicit path must not need PATH
  SetupRequest request = Request("redis");
  request.binaries["redis"] = link.string();
  auto st = provider_.Provision(&state_, request);
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(state_.engines.size(), 1u);
  EXPECT_EQ(state_.engines[0].binary, link.string());
  EXPECT_EQ(state_.engines[0].version.rfind("Redis server v=", 0), 0u);
}

TEST_F(LocalProviderTest, ExplicitBinaryMustBeExecutable) {
  SetupRequest request = Request("redis");
  request.binaries["redis"] = "/x";
  auto st = provider_.Provision(&state_, request);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_EQ(st.error().message, "--redis_binary /x: not an executable file");
  // Also refused under skip_missing_engines: only engines left to PATH are optional.
  request = Request("redis,memcached");
  request.binaries["redis"] = "/x";
  request.skip_missing_engines = true;
  st = provider_.Provision(&state_, request);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "--redis_binary /x: not an executable file");
}

TEST_F(LocalProviderTest, MissingEngineIsAnErrorBySetup) {
  EmptyPath();
  if (core::FindOnPath("redis-server")) GTEST_SKIP() << "redis-server is in an sbin directory";
  SetupRequest request = Request("redis,memcached");
  request.binaries["memcached"] = *core::FindOnPath("/usr/bin/memcached");
  auto st = provider_.Provision(&state_, request);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_EQ(st.error().message,
            "\"redis-server\" not found on PATH (install it or pass --redis_binary PATH)");
}

TEST_F(LocalProviderTest, MissingEngineIsSkippedByQuickstart) {
  EmptyPath();
  if (core::FindOnPath("redis-server")) GTEST_SKIP() << "redis-server is in an sbin directory";
  SetupRequest request = Request("redis,memcached");
  request.binaries["memcached"] = "/usr/bin/memcached";
  request.skip_missing_engines = true;
  ::testing::internal::CaptureStderr();
  auto st = provider_.Provision(&state_, request);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(state_.engines.size(), 1u);
  EXPECT_EQ(state_.engines[0].name, "memcached");
  EXPECT_EQ(state_.FindEngine("redis"), nullptr);
  // Its latest release cannot be fetched either (no network, no tools on this PATH).
  EXPECT_NE(err.find("skipping redis: \"redis-server\" not found on PATH (install it or pass "
                     "--redis_binary PATH); fetching it failed: "),
            std::string::npos)
      << err;
}

TEST_F(LocalProviderTest, NothingUsable) {
  EmptyPath();
  if (core::FindOnPath("redis-server")) GTEST_SKIP() << "redis-server is in an sbin directory";
  SetupRequest request = Request("redis");
  request.skip_missing_engines = true;
  ::testing::internal::CaptureStderr();
  auto st = provider_.Provision(&state_, request);
  ::testing::internal::GetCapturedStderr();
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_EQ(st.error().message.rfind("no engine to benchmark: redis (", 0), 0u)
      << st.error().message;
}

TEST_F(LocalProviderTest, DestroyRemovesTheWorkDirAndIsIdempotent) {
  ASSERT_TRUE(provider_.Provision(&state_, Request("redis")));
  auto fleet = provider_.Connect(state_);
  ASSERT_TRUE(fleet);
  auto work = fleet->server->WorkDir();
  ASSERT_TRUE(work);
  ASSERT_TRUE(core::WriteFileAtomic(*work + "/engine.log", "log"));
  ASSERT_TRUE(provider_.Destroy(&state_));
  EXPECT_FALSE(std::filesystem::exists(*work));
  EXPECT_TRUE(std::filesystem::exists(state::SetupDir(state_.id)));
  EXPECT_TRUE(provider_.Destroy(&state_));
}

TEST_F(LocalProviderTest, ConnectRefusesAnotherProvidersSetup) {
  state_.provider = state::ProviderKind::kAws;
  auto fleet = provider_.Connect(state_);
  ASSERT_FALSE(fleet);
  EXPECT_EQ(fleet.error().kind, core::ErrorKind::kUsage);
}

}  // namespace
}  // namespace dfbench::providers
