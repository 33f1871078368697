#include "scenarios/run_record.h"

#include <gtest/gtest.h>

#include "core/files.h"
#include "drivers/builtin_driver.h"
#include "results/memory_schema.h"
#include "results/replication_schema.h"
#include "support/dfbench_home.h"
#include "support/test_data.h"

namespace dfbench::scenarios {
namespace {

namespace fs = std::filesystem;
using dfbench::testing::ReadJson;

using RunRecordTest = dfbench::testing::DfbenchHomeTest;

// A ready setup "s" with its directory, not saved.
state::SetupState ReadySetup() {
  state::SetupState s{.id = "s", .status = state::SetupStatus::kReady};
  EXPECT_TRUE(core::MakeDirs(state::SetupDir(s.id)));
  return s;
}

// An aws setup as the provider records it: the instance types per role.
void RecordAwsFleet(state::SetupState* s) {
  s->provider = state::ProviderKind::kAws;
  s->region = "eu-west-1";
  s->provider_data["aws"] = {{"account", "123456789012"},
                             {"instances",
                              {{{"role", "server"}, {"type", "c7g.xlarge"}},
                               {{"role", "client"}, {"type", "c7gn.large"}},
                               {{"role", "replica-0"}, {"type", "c7g.2xlarge"}}}}};
}

TEST_F(RunRecordTest, OpenResultsRecordsTheFleetsInstanceTypes) {
  state::SetupState setup = ReadySetup();
  RecordAwsFleet(&setup);
  const drivers::BuiltinDriver driver;
  results::MemoryRunResults memory;
  auto dir = OpenResults(setup, driver, state::SetupDir("s") / "memory", "raw", &memory);
  ASSERT_TRUE(dir) << dir.error().message;
  EXPECT_TRUE(fs::is_directory(*dir / "raw"));
  EXPECT_EQ(memory.run_id, dir->filename().string());
  EXPECT_EQ(memory.region, "eu-west-1");
  EXPECT_EQ(memory.server_instance, "c7g.xlarge");
  EXPECT_EQ(memory.client_instance, "c7gn.large");
  EXPECT_EQ(memory.status, results::RunStatus::kRunning);

  // A replication run names the server its master, and records the replica's type.
  results::ReplicationRunResults replication;
  ASSERT_TRUE(
      OpenResultsAt(setup, driver, "out", state::SetupDir("s") / "out", "raw", &replication));
  EXPECT_EQ(replication.run_id, "out");
  EXPECT_EQ(replication.master_instance, "c7g.xlarge");
  EXPECT_EQ(replication.replica_instance, "c7g.2xlarge");
  EXPECT_EQ(replication.client_instance, "c7gn.large");
}

TEST(FinalStatus, ARowFailsByItsScenariosRule) {
  results::ReplicationCase done{.termination_reason = results::kTerminationReplicaDisconnect,
                                .engine = "redis",
                                .error = "the master lost its replica"};
  results::ReplicationCase failed{.termination_reason = results::kTerminationError,
                                  .engine = "redis",
                                  .error = "master: no such binary"};
  auto by_reason = [](const results::ReplicationCase& c) {
    return c.termination_reason == results::kTerminationError;
  };
  EXPECT_EQ(FinalStatus<results::ReplicationCase>(false, {&done}), results::RunStatus::kFailed);
  EXPECT_EQ(FinalStatus<results::ReplicationCase>(false, {&done}, by_reason),
            results::RunStatus::kCompleted);
  EXPECT_EQ(FinalStatus<results::ReplicationCase>(false, {&done, &failed}, by_reason),
            results::RunStatus::kFailed);
  EXPECT_EQ(FinalStatus<results::ReplicationCase>(true, {&failed}, by_reason),
            results::RunStatus::kInterrupted);
}

TEST_F(RunRecordTest, AStartedReplicationIsMarkedInterruptedAndClosedOncePerEngine) {
  state::SetupState setup = ReadySetup();
  const drivers::BuiltinDriver driver;
  results::ReplicationRunResults r;
  const fs::path dir = state::SetupDir("s") / "replications" / "r1";
  ASSERT_TRUE(OpenResultsAt(setup, driver, "r1", dir, "raw", &r));
  auto save = [&] {
    ASSERT_TRUE(core::WriteFileAtomic(dir / "results.json", results::RenderReplicationJson(r)));
  };
  const std::string path = "replications/r1/results.json";
  ASSERT_TRUE(StartResults(&setup, "replication", path, save, r));
  ASSERT_EQ(setup.benchmarks.size(), 1u);
  EXPECT_EQ(setup.benchmarks[0].status, results::RunStatus::kRunning);
  EXPECT_EQ(ReadJson(dir / "results.json")["status"], "running");

  // A killed run: the next command marks the record and the file, read as a replication run.
  state::SetupState killed = setup;
  EXPECT_EQ(InterruptRunningRecords(&killed), std::vector<std::string>{"r1"});
  EXPECT_EQ(ReadJson(dir / "results.json")["status"], "interrupted");
  EXPECT_EQ(ReadJson(dir / "results.json")["scenario"], "replication");

  // A finished one: two cases of redis, one of valkey name each engine once.
  for (const char* engine : {"redis", "redis", "valkey"}) {
    r.cases.push_back({.termination_reason = results::kTerminationTimeout, .engine = engine});
  }
  CloseResults(&setup, false, RowPointers(r.cases), "replication", path, save, &r);
  EXPECT_EQ(r.status, results::RunStatus::kCompleted);
  EXPECT_EQ(setup.benchmarks[0].status, results::RunStatus::kCompleted);
  EXPECT_EQ(setup.benchmarks[0].engines, (std::vector<std::string>{"redis", "valkey"}));
  EXPECT_EQ(ReadJson(dir / "results.json")["status"], "completed");
}

}  // namespace
}  // namespace dfbench::scenarios
