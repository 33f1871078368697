#include "results/memory_schema.h"

#include <gtest/gtest.h>

#include "results/test_fixtures.h"

namespace dfbench::results {
namespace {

MemoryRunResults SampleMemoryRun() {
  MemoryRunResults r = testing::CompletedRun<MemoryRunResults>("s");
  r.server_instance = "c7g.xlarge";
  r.client_instance = "c7gn.large";
  r.settings.keys = 1000;
  MemoryEngineResult e{{.engine = "redis", .version = "redis 7.0.15"}};
  MemoryTrial t{.trial = 1, .populate = "debug_populate", .keys = 1000};
  t.empty_pss_bytes = 1'000'000;
  t.idle_pss_bytes = 3'000'000;
  t.bytes_per_key = 2000;
  t.peak_pss_bytes = 4'500'000;
  t.peak_processes = 2;
  t.snapshot_status = kSnapshotOk;
  t.snapshot_duration_ms = 250;
  t.memory = {{.t_sec = 0.1, .pss_bytes = 3'000'000, .processes = 1},
              {.t_sec = 0.2, .pss_bytes = 4'500'000, .processes = 2}};
  t.load = {{.t_sec = 1, .rps = 100, .p99_us = 500}};
  e.trials.push_back(t);
  e.Aggregate();
  r.engines.push_back(e);
  return r;
}

TEST(MemorySchema, RoundTrips) {
  const MemoryRunResults r = SampleMemoryRun();
  const std::string text = RenderMemoryJson(r);
  EXPECT_EQ(text.rfind("{\n  \"scenario\": \"memory\"", 0), 0u) << text;
  MemoryRunResults back;
  ASSERT_TRUE(testing::RoundTrips(r, RenderMemoryJson, &back));
  EXPECT_EQ(back.server_instance, "c7g.xlarge");
  EXPECT_EQ(back.client_instance, "c7gn.large");
  ASSERT_EQ(back.engines.size(), 1u);
  EXPECT_EQ(back.engines[0].peak_bytes.median, 4'500'000);
  EXPECT_EQ(back.engines[0].trials[0].memory[1].processes, 2);
}

TEST(MemorySchema, RefusesAnotherScenario) {
  MemoryRunResults back;
  std::string error;
  EXPECT_FALSE(FromJson(nlohmann::json{{"scenario", "replication"}}, &back, &error));
  EXPECT_NE(error.find("expected \"memory\""), std::string::npos) << error;
  EXPECT_FALSE(
      FromJson(nlohmann::json{{"engines", {{{"trials", {{{"keys", "x"}}}}}}}}, &back, &error));
  EXPECT_EQ(error, "engines[0].trials[0].keys: expected a non-negative integer");
}

TEST(MemorySchema, AggregatesOnlyFinishedSnapshots) {
  MemoryEngineResult e;
  e.trials.push_back({.snapshot_status = kSnapshotOk, .snapshot_duration_ms = 100});
  e.trials.push_back({.snapshot_status = kSnapshotFailed, .snapshot_duration_ms = 5});
  e.Aggregate();
  EXPECT_EQ(e.snapshot_duration_ms.median, 100);
  EXPECT_EQ(e.snapshot_duration_ms.max, 100);
}

// A trial whose updates failed is kept in the file, out of every summary, and named in the
// table's note.
TEST(MemorySchema, AFailedTrialIsLeftOutOfTheSummariesAndNamedInTheNote) {
  MemoryRunResults r;
  MemoryEngineResult& e = r.engines.emplace_back();
  e.engine = "redis";
  e.trials.push_back({.trial = 1, .idle_pss_bytes = 1000, .snapshot_status = kSnapshotOk});
  e.trials.push_back({.trial = 2,
                      .idle_pss_bytes = 9000,
                      .snapshot_status = kSnapshotOk,
                      .snapshot_duration_ms = 7,
                      .failed = "no request succeeded (40 errors)"});
  e.Aggregate();
  EXPECT_EQ(e.idle_bytes.median, 1000);
  EXPECT_EQ(e.idle_bytes.max, 1000);
  EXPECT_EQ(e.snapshot_duration_ms.max, 0);
  EXPECT_NE(RenderMemoryTable(r).find("trial 2 failed: no request succeeded (40 errors)"),
            std::string::npos)
      << RenderMemoryTable(r);
}

TEST(MemorySchema, PhasesTakeTheWholeSecondsInside) {
  const std::vector<RepSample> load = {{.t_sec = 1, .rps = 10, .p99_us = 1000},
                                       {.t_sec = 2, .rps = 20, .p99_us = 2000},
                                       {.t_sec = 3, .rps = 30, .p99_us = 3000},
                                       {.t_sec = 4, .rps = 40, .p99_us = 4000}};
  const PhaseLoad p = SummarizePhase(load, 1, 3);  // the seconds ending at 2 and 3
  EXPECT_EQ(p.seconds, 2);
  EXPECT_EQ(p.ops_per_sec, 25);
  EXPECT_EQ(p.p99_ms, 2.5);
  EXPECT_EQ(SummarizePhase(load, 1.5, 2.5).seconds, 0);
  const PhaseLoad short_window = SummarizePhase(load, 1.5, 1.8, PhaseSeconds::kOverlapping);
  EXPECT_EQ(short_window.seconds, 1);  // the second ending at 2
  EXPECT_EQ(short_window.ops_per_sec, 20);
}

TEST(MemorySchema, TableAndCsvNameEachEngine) {
  MemoryRunResults r = SampleMemoryRun();
  r.engines[0].trials[0].snapshot_error = "Read-only file system";
  const std::string table = RenderMemoryTable(r);
  EXPECT_NE(table.find("redis 7.0.15"), std::string::npos) << table;
  EXPECT_NE(table.find("1.50x"), std::string::npos) << table;
  EXPECT_NE(table.find("snapshot: Read-only file system"), std::string::npos) << table;
  const std::string csv = RenderMemoryCsv(r);
  EXPECT_EQ(csv.rfind("engine,version,trial,populate,keys,", 0), 0u) << csv;
  EXPECT_NE(csv.find("redis,redis 7.0.15,1,debug_populate,1000,0,1000000,3000000"),
            std::string::npos)
      << csv;
}

}  // namespace
}  // namespace dfbench::results
