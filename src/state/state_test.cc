#include "state/state.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "core/files.h"
#include "results/test_fixtures.h"
#include "support/dfbench_home.h"

namespace dfbench::state {
namespace {

using core::ErrorKind;

class StateTest : public testing::DfbenchHomeTest {};

SetupState FullState(const std::string& id) {
  SetupState s;
  s.id = id;
  s.status = SetupStatus::kReady;
  s.provider = ProviderKind::kSsh;
  s.created_at = "2026-04-08T14:30:11Z";
  s.region = "us-east-1";
  s.ubuntu_version = "24.04";
  s.tune_network = true;
  s.hosts = {testing::FullHost(core::Role::Server()),
             {.role = core::Role::Client(), .name = "cli", .address = "3.88.12.17", .vcpus = 16}};
  s.engines = {{.name = "redis",
                .binary = "/usr/bin/redis-server",
                .version = "Redis server v=7.0.15",
                .status = InstallStatus::kInstalled},
               {.name = "valkey", .status = InstallStatus::kMissing}};
  s.benchmarks = {{.kind = "run",
                   .run_id = "20260408-143217",
                   .path = "benchmarks/20260408-143217/results.json",
                   .created_at = "2026-04-08T14:32:17Z",
                   .completed_at = "2026-04-08T14:41:05Z",
                   .status = results::RunStatus::kCompleted,
                   .engines = {"redis", "dragonfly"}}};
  s.provider_data.aws = AwsRecord{.stack_name = "dfbench-perf-may"};
  s.provider_data.ssh = SshRecord{.user = "ubuntu", .key_path = "ssh/id_rsa"};
  s.settings.server_instance = "c7g.4xlarge";
  return s;
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  ASSERT_TRUE(core::WriteFileAtomic(path, text));
}

TEST_F(StateTest, HomeDirFollowsDfbenchHome) {
  EXPECT_EQ(HomeDir(), home_);
  EXPECT_EQ(RunsDir(), home_ / "runs");
  EXPECT_EQ(SetupDir("perf-may"), home_ / "runs" / "perf-may");
}

TEST_F(StateTest, HomeDirFallsBackToHomeWhenDfbenchHomeIsEmpty) {
  const char* old_home = std::getenv("HOME");
  const std::string saved = old_home ? old_home : "";
  setenv("DFBENCH_HOME", "", 1);
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(HomeDir(), std::filesystem::path("/home/someone/.dfbench"));
  if (old_home) {
    setenv("HOME", saved.c_str(), 1);
  } else {
    unsetenv("HOME");
  }
}

TEST_F(StateTest, HomeRunsAndSetupDirectoriesArePrivateWhateverTheUmask) {
  const std::filesystem::path home = home_ / "fresh";
  setenv("DFBENCH_HOME", home.c_str(), 1);
  const mode_t saved = umask(0);
  SetupState s = FullState("open");
  auto saved_state = Save(&s);
  umask(saved);
  ASSERT_TRUE(saved_state) << saved_state.error().message;
  for (const auto& dir : {home, home / "runs", home / "runs" / "open"}) {
    struct stat st;
    ASSERT_EQ(stat(dir.c_str(), &st), 0) << dir;
    EXPECT_EQ(st.st_mode & 0777, 0700u) << dir;
  }
}

TEST_F(StateTest, SaveThenLoadRoundTrips) {
  SetupState in = FullState("perf-may");
  ASSERT_TRUE(Save(&in));
  EXPECT_FALSE(in.updated_at.empty());
  EXPECT_EQ(in.created_at, "2026-04-08T14:30:11Z");

  auto out = Load("perf-may");
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(ToJson(*out), ToJson(in));
  EXPECT_EQ(out->updated_at, in.updated_at);
  ASSERT_NE(out->FindHost(core::Role::Server()), nullptr);
  EXPECT_EQ(out->FindHost(core::Role::Server())->cpus, (std::vector<int>{2, 3}));
  EXPECT_EQ(out->FindHost(core::Role::Replica(0)), nullptr);
  ASSERT_NE(out->FindEngine("redis"), nullptr);
  EXPECT_EQ(out->FindEngine("redis")->binary, "/usr/bin/redis-server");
  EXPECT_EQ(out->benchmarks.at(0).engines, (std::vector<std::string>{"redis", "dragonfly"}));
  ASSERT_TRUE(out->provider_data.aws);
  EXPECT_EQ(out->provider_data.aws->stack_name, "dfbench-perf-may");
  ASSERT_TRUE(out->provider_data.ssh);
  EXPECT_EQ(out->provider_data.ssh->key_path, "ssh/id_rsa");
  EXPECT_EQ(out->settings.server_instance, "c7g.4xlarge");
  EXPECT_EQ(out->settings.replicas.Count(), 0);

  auto text = core::ReadFile(SetupDir("perf-may") / "state.json");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->rfind("{\n  \"id\": \"perf-may\",\n  \"status\": \"ready\",\n", 0), 0u) << *text;
  EXPECT_EQ(text->back(), '\n');
}

TEST_F(StateTest, UbuntuVersionAndTuneNetworkAreTopLevelAsInTheReference) {
  SetupState in = FullState("tuned");
  ASSERT_TRUE(Save(&in));
  auto text = core::ReadFile(SetupDir("tuned") / "state.json");
  ASSERT_TRUE(text);
  const nlohmann::json j = nlohmann::json::parse(*text);
  EXPECT_EQ(j["ubuntu_version"], "24.04");
  EXPECT_EQ(j["tune_network"], true);
  auto out = Load("tuned");
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->ubuntu_version, "24.04");
  EXPECT_TRUE(out->tune_network);

  // Outside AWS there is no Ubuntu release to record; tune_network is always written.
  SetupState local;
  local.id = "here";
  ASSERT_TRUE(Save(&local));
  const nlohmann::json l = nlohmann::json::parse(*core::ReadFile(SetupDir("here") / "state.json"));
  EXPECT_FALSE(l.contains("ubuntu_version"));
  EXPECT_EQ(l["tune_network"], false);
  // A state written before these fields reads with their defaults.
  auto old = FromJson(nlohmann::json::parse(R"({"id": "x", "status": "ready"})"));
  ASSERT_TRUE(old);
  EXPECT_EQ(old->ubuntu_version, "");
  EXPECT_FALSE(old->tune_network);
}

TEST_F(StateTest, SaveStampsCreatedAtWhenMissing) {
  SetupState s;
  s.id = "fresh";
  ASSERT_TRUE(Save(&s));
  EXPECT_FALSE(s.created_at.empty());
  EXPECT_EQ(s.created_at, s.updated_at);
}

TEST_F(StateTest, SaveRefusesAnInvalidId) {
  SetupState s;
  s.id = "../escape";
  auto saved = Save(&s);
  ASSERT_FALSE(saved);
  EXPECT_EQ(saved.error().kind, ErrorKind::kUsage);
}

TEST_F(StateTest, FromJsonIsLenientAboutMissingFields) {
  auto s = FromJson(nlohmann::json::parse(R"({"id": "x", "status": "ready"})"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->provider, ProviderKind::kLocal);
  EXPECT_TRUE(s->hosts.empty());
  EXPECT_FALSE(s->provider_data.ssh);
  EXPECT_FALSE(s->provider_data.engine_port);
  EXPECT_TRUE(s->settings.engines.empty());
}

TEST_F(StateTest, ProviderIsOneOfTheKnownWords) {
  auto aws = FromJson(nlohmann::json::parse(R"({"id": "x", "provider": "aws"})"));
  ASSERT_TRUE(aws);
  EXPECT_EQ(aws->provider, ProviderKind::kAws);
  EXPECT_EQ(ToJson(*aws)["provider"], "aws");
  auto unknown = FromJson(nlohmann::json::parse(R"({"id": "x", "provider": "gcp"})"));
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, ErrorKind::kUsage);
  EXPECT_EQ(unknown.error().message, "provider: expected one of local, ssh, aws or endpoint");
}

TEST_F(StateTest, MissingSetupIsNotFound) {
  auto s = Load("foo");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(s.error().message,
            "setup \"foo\" not found (run 'dfbench list' to see available setups)");

  // A directory without state.json (say, only a lock file) is no setup either.
  ASSERT_TRUE(core::MakeDirs(SetupDir("foo")));
  s = Load("foo");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kNotFound);
}

TEST_F(StateTest, MalformedStateIsUsageErrorNamingTheFile) {
  const auto path = SetupDir("bad") / "state.json";
  const std::string corrupt = "setup \"bad\" is corrupt: ";
  WriteText(path, "{\"id\": \"bad\",");
  auto s = Load("bad");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kUsage);
  EXPECT_EQ(s.error().message.rfind(corrupt + path.string() + ": malformed JSON", 0), 0u)
      << s.error().message;

  WriteText(path, R"({"id": "bad", "hosts": [{"role": "server"}, {"vcpus": "16"}]})");
  s = Load("bad");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kUsage);
  EXPECT_EQ(s.error().message, corrupt + path.string() + ": hosts[1].vcpus: expected an integer");

  WriteText(path, "[]");
  s = Load("bad");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, corrupt + path.string() + ": expected an object");
}

TEST_F(StateTest, LoadTakesTheIdFromTheDirectory) {
  SetupState s = FullState("original");
  ASSERT_TRUE(Save(&s));
  std::filesystem::rename(SetupDir("original"), SetupDir("renamed"));
  auto loaded = Load("renamed");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->id, "renamed");
}

TEST_F(StateTest, ListSetupsNewestFirstWithCorruptOnesApart) {
  EXPECT_TRUE(ListSetups().empty());  // no runs directory yet
  for (const auto& [id, created] :
       std::vector<std::pair<std::string, std::string>>{{"old", "2026-01-01T00:00:00Z"},
                                                        {"newest", "2026-04-08T14:30:11Z"},
                                                        {"middle", "2026-03-01T12:00:00Z"},
                                                        {"middle-b", "2026-03-01T12:00:00Z"}}) {
    SetupState s;
    s.id = id;
    s.created_at = created;
    ASSERT_TRUE(Save(&s));
  }
  WriteText(SetupDir("broken") / "state.json", "not json");
  ASSERT_TRUE(core::MakeDirs(SetupDir("empty")));
  WriteText(RunsDir() / "stray-file", "x");

  std::vector<std::string> ids;
  std::vector<std::string> corrupt;
  for (const auto& s : ListSetups(&corrupt)) ids.push_back(s.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"newest", "middle", "middle-b", "old"}));
  // A directory without state.json is no setup; one whose file is not JSON is corrupt.
  EXPECT_EQ(corrupt, std::vector<std::string>{"broken"});
  auto broken = Load("broken");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(
      broken.error().message.rfind(
          "setup \"broken\" is corrupt: " + (SetupDir("broken") / "state.json").string() + ": ", 0),
      0u)
      << broken.error().message;
}

TEST(ValidateId, AcceptsAndRejects) {
  for (const std::string& id :
       std::vector<std::string>{"perf-may", "a", "A.b_c-9", std::string(64, 'x'), "..."}) {
    EXPECT_TRUE(ValidateId(id)) << id;
  }
  for (const std::string& id : std::vector<std::string>{"", ".", "..", std::string(65, 'x'), "a/b",
                                                        "../x", "a b", "tab\t", "é", "a:b"}) {
    auto st = ValidateId(id);
    ASSERT_FALSE(st) << id;
    EXPECT_EQ(st.error().kind, ErrorKind::kUsage);
  }
}

class StatusGuardTest : public testing::DfbenchHomeTest {};

std::string StatusOnDisk(const std::string& id) {
  auto s = Load(id);
  return s ? ToString(s->status) : "<" + s.error().message + ">";
}

TEST_F(StatusGuardTest, RestoresPreviousStatusOnScopeExit) {
  SetupState s = FullState("g");
  ASSERT_TRUE(Save(&s));
  {
    auto guard = StatusGuard::Enter(&s, SetupStatus::kBenchmarking);
    ASSERT_TRUE(guard);
    EXPECT_EQ(s.status, SetupStatus::kBenchmarking);
    EXPECT_EQ(StatusOnDisk("g"), ToString(SetupStatus::kBenchmarking));
    // A moved guard restores once, from its new home.
    StatusGuard moved = std::move(*guard);
  }
  EXPECT_EQ(s.status, SetupStatus::kReady);
  EXPECT_EQ(StatusOnDisk("g"), ToString(SetupStatus::kReady));
}

TEST_F(StatusGuardTest, FinishKeepsTheFinalStatus) {
  SetupState s = FullState("g");
  ASSERT_TRUE(Save(&s));
  {
    auto guard = StatusGuard::Enter(&s, SetupStatus::kDestroying);
    ASSERT_TRUE(guard);
    ASSERT_TRUE(guard->Finish(SetupStatus::kDestroyed));
  }
  EXPECT_EQ(s.status, SetupStatus::kDestroyed);
  EXPECT_EQ(StatusOnDisk("g"), ToString(SetupStatus::kDestroyed));
}

TEST_F(StatusGuardTest, EnterFailureLeavesStatusUnchanged) {
  SetupState s;
  s.id = "bad/id";
  s.status = SetupStatus::kReady;
  auto guard = StatusGuard::Enter(&s, SetupStatus::kBenchmarking);
  ASSERT_FALSE(guard);
  EXPECT_EQ(s.status, SetupStatus::kReady);
}

TEST_F(StateTest, WorkingStatusRecordsWhoHoldsItUntilStable) {
  SetCommandName("run");
  SetupState s{.id = "w1", .status = SetupStatus::kReady};
  ASSERT_TRUE(Save(&s));
  {
    auto guard = StatusGuard::Enter(&s, SetupStatus::kBenchmarking);
    ASSERT_TRUE(guard);
    auto loaded = Load("w1");
    ASSERT_TRUE(loaded);
    ASSERT_TRUE(loaded->active.has_value());
    EXPECT_EQ(loaded->active->command, "run");
    EXPECT_EQ(loaded->active->pid, static_cast<int>(getpid()));
    EXPECT_FALSE(loaded->active->started_at.empty());
    EXPECT_EQ(loaded->active->previous_status, SetupStatus::kReady);
  }
  auto after = Load("w1");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, SetupStatus::kReady);
  EXPECT_FALSE(after->active.has_value());
  EXPECT_TRUE(IsWorkingStatus(SetupStatus::kInstalling));
  EXPECT_FALSE(IsWorkingStatus(SetupStatus::kFailed));
}

// A row records the version that answered with the install's origin and digest, all three at once.
TEST(BuildOf, TakesOriginAndDigestFromTheInstallAndTheVersionThatAnswered) {
  const EngineInstall install{.name = "redis",
                              .binary = "/usr/bin/redis-server",
                              .version = "Redis server v=7.0.11",
                              .origin = "release",
                              .sha256 = "ab12"};
  results::EngineRecord record;
  record.SetBuild(BuildOf(install, "Redis server v=7.0.15"));
  EXPECT_EQ(record.version, "Redis server v=7.0.15");
  EXPECT_EQ(record.origin, "release");
  EXPECT_EQ(record.sha256, "ab12");
}

}  // namespace
}  // namespace dfbench::state
