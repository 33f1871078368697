#include "scenarios/frame/run_record.h"

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
  s->provider_data.aws =
      state::AwsRecord{.account = "123456789012",
                       .instances = {{.role = core::Role::Server(), .type = "c7g.xlarge"},
                                     {.role = core::Role::Client(), .type = "c7gn.large"},
                                     {.role = core::Role::Replica(0), .type = "c7g.2xlarge"}}};
}

// Replication runs, their files read by the next command as the scenario writes them.
const RunKind<results::ReplicationRunResults> kReplication{"replication", "replications", "raw",
                                                           &results::RenderReplicationJson,
                                                           &results::RenderReplicationCsv};

TEST_F(RunRecordTest, OpeningARunRecordsTheFleetsInstanceTypes) {
  state::SetupState setup = ReadySetup();
  RecordAwsFleet(&setup);
  const drivers::BuiltinDriver driver;
  results::MemoryRunResults memory;
  const RunKind<results::MemoryRunResults> kind{
      "memory", "memory", "raw", &results::RenderMemoryJson, &results::RenderMemoryCsv};
  auto run = ScenarioRun<results::MemoryRunResults>::Open(&setup, driver, kind, &memory);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->dir().parent_path(), state::SetupDir("s") / "memory");
  EXPECT_TRUE(fs::is_directory(run->dir() / "raw"));
  EXPECT_EQ(memory.run_id, run->dir().filename().string());
  EXPECT_EQ(memory.region, "eu-west-1");
  EXPECT_EQ(memory.server_instance, "c7g.xlarge");
  EXPECT_EQ(memory.client_instance, "c7gn.large");
  EXPECT_EQ(memory.status, results::RunStatus::kRunning);

  // A replication run names the server its master, and records the replica's type.
  results::ReplicationRunResults replication;
  ASSERT_TRUE(ScenarioRun<results::ReplicationRunResults>::OpenAt(
      &setup, driver, kReplication, "out", state::SetupDir("s") / "out", "out/results.json",
      &replication));
  EXPECT_EQ(replication.run_id, "out");
  EXPECT_EQ(replication.master_instance, "c7g.xlarge");
  EXPECT_EQ(replication.replica_instance, "c7g.2xlarge");
  EXPECT_EQ(replication.client_instance, "c7gn.large");
}

TEST(FinalStatus, ARowFailsByItsScenariosRule) {
  results::ReplicationCase done{.termination_reason = results::kTerminationReplicaDisconnect};
  done.engine = "redis";
  done.error = "the master lost its replica";
  results::ReplicationCase failed{.termination_reason = results::kTerminationError};
  failed.engine = "redis";
  failed.error = "master: no such binary";
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
  const std::string path = "replications/r1/results.json";
  auto run = ScenarioRun<results::ReplicationRunResults>::OpenAt(&setup, driver, kReplication, "r1",
                                                                 dir, path, &r);
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_TRUE(run->Start(/*config=*/nullptr, "replication r1"));
  EXPECT_FALSE(fs::exists(dir / "config.json"));
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
    r.cases.push_back({.termination_reason = results::kTerminationTimeout});
    r.cases.back().engine = engine;
  }
  run->Close(false, RowPointers(r.cases));
  EXPECT_EQ(r.status, results::RunStatus::kCompleted);
  EXPECT_EQ(setup.benchmarks[0].status, results::RunStatus::kCompleted);
  EXPECT_EQ(setup.benchmarks[0].engines, (std::vector<std::string>{"redis", "valkey"}));
  EXPECT_EQ(ReadJson(dir / "results.json")["status"], "completed");
}

}  // namespace
}  // namespace dfbench::scenarios
