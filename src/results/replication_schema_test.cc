#include "results/replication_schema.h"

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/format.h"
#include "results/json_util.h"
#include "results/test_fixtures.h"
#include "results/writers.h"
#include "support/test_data.h"

namespace dfbench::results {
namespace {

using nlohmann::json;

ReplicationRunResults SampleReplicationRun() {
  ReplicationRunResults r = testing::CompletedRun<ReplicationRunResults>("rep-demo");
  r.master_instance = "c7g.4xlarge";
  r.replica_instance = "c7g.4xlarge";
  r.client_instance = "c7g.2xlarge";
  r.dfly_bench_ref = "main";
  ReplicationCase c;
  c.run_name = "qps=100000";
  c.preload_args = "dfly_bench --ratio=1:0";
  c.load_args = "dfly_bench --qps=100000";
  c.master_flags = {"--maxmemory=25gb"};
  c.replica_flags = {"--maxmemory=25gb", "--replication_stream_compression=zstd"};
  c.series = {{.t_sec = 1, .rps = 198500, .p99_us = 2100},
              {.t_sec = 2, .rps = 199800.5, .p99_us = 2050},
              {.t_sec = 3, .rps = 190000, .p99_us = 2400}};
  c.sync_duration_ms = 3427;
  c.termination_reason = kTerminationTimeout;
  r.cases = {c};
  r.context.hosts.push_back({.role = core::Role::Server(), .name = "m1", .vcpus = 16});
  return r;
}

TEST(ReplicationSchema, RoundTripsThroughJson) {
  ReplicationRunResults back;
  ASSERT_TRUE(testing::RoundTrips(SampleReplicationRun(), RenderReplicationJson, &back));
  const std::string text = RenderReplicationJson(back);  // the sample's text, as RoundTrips found
  EXPECT_EQ(back.cases[0].series[1].rps, 199800.5);
  EXPECT_EQ(back.context.hosts[0].vcpus, 16);
  // The reference's key order, whole numbers without a fraction.
  EXPECT_EQ(text.find("\"scenario\": \"replication\""), 4u) << text;
  EXPECT_LT(text.find("\"run_id\""), text.find("\"cases\""));
  EXPECT_LT(text.find("\"series\""), text.find("\"sync_duration_ms\""));
  EXPECT_NE(text.find("\"sync_duration_ms\": 3427,"), std::string::npos) << text;
  EXPECT_NE(text.find("{\n          \"t_sec\": 1,\n          \"rps\": 198500,"), std::string::npos)
      << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(ReplicationSchema, ReadsTheReferenceExample) {
  auto text = core::ReadFile(testing::FixturePath("results/reference_replication.json"));
  ASSERT_TRUE(text);
  ReplicationRunResults r;
  ASSERT_TRUE(testing::Reads(*text, &r));
  EXPECT_EQ(r.setup_id, "rep-demo");
  EXPECT_EQ(r.dfly_bench_ref, "main");
  EXPECT_FALSE(r.status);
  ASSERT_EQ(r.cases.size(), 1u);
  const ReplicationCase& c = r.cases[0];
  EXPECT_EQ(c.run_name, "qps=100000");
  EXPECT_EQ(c.replica_flags, (std::vector<std::string>{"--maxmemory=25gb",
                                                       "--replication_stream_compression=zstd"}));
  ASSERT_EQ(c.series.size(), 2u);
  EXPECT_EQ(c.series[1].t_sec, 2);
  EXPECT_EQ(c.series[1].rps, 199800);
  EXPECT_EQ(c.series[1].p99_us, 2050);
  EXPECT_EQ(c.sync_duration_ms, 3427);
  EXPECT_EQ(c.termination_reason, "timeout");
}

TEST(ReplicationSchema, SeriesSummaries) {
  const ReplicationCase c = SampleReplicationRun().cases[0];
  const Stats rps = RpsStats(c);
  EXPECT_EQ(rps.median, 198500);
  EXPECT_EQ(rps.min, 190000);
  EXPECT_EQ(rps.max, 199800.5);
  const Stats p99 = P99UsStats(c);
  EXPECT_EQ(p99.median, 2100);
  EXPECT_EQ(p99.min, 2050);
  EXPECT_EQ(p99.max, 2400);
  EXPECT_EQ(RpsStats(ReplicationCase{}).median, 0);
}

TEST(ReplicationSchema, ErrorsNameTheFieldPath) {
  ReplicationRunResults r;
  std::string error;
  EXPECT_FALSE(FromJson(json::parse(R"({"cases": [{"sync_duration_ms": "slow"}]})"), &r, &error));
  EXPECT_EQ(error, "cases[0].sync_duration_ms: expected a number");
  EXPECT_FALSE(FromJson(json::parse(R"({"scenario": "commands"})"), &r, &error));
  EXPECT_EQ(error, "scenario: expected \"replication\", got \"commands\"");
  EXPECT_FALSE(FromJson(json::parse(R"({"context": {"hosts": [{"vcpus": "x"}]}})"), &r, &error));
  EXPECT_EQ(error, "context.hosts[0].vcpus: expected an integer");
  EXPECT_FALSE(FromJson(json::parse(R"({"context": 3})"), &r, &error));
  EXPECT_EQ(error, "context: expected an object");
  EXPECT_FALSE(FromJson(json::parse("[]"), &r, &error));
  EXPECT_EQ(error, "expected an object");
}

TEST(ReplicationSchema, EngineAndErrorRoundTripAndNameTheCase) {
  ReplicationRunResults r;
  r.cases.push_back({.run_name = "qps=500",
                     .series = {{.t_sec = 1, .rps = 1000, .p99_us = 250.5}},
                     .sync_duration_ms = 2500,
                     .termination_reason = kTerminationTimeout});
  r.cases.back().engine = "redis";
  r.cases.push_back({.run_name = "maxload", .termination_reason = kTerminationError});
  r.cases.back().engine = "redis";
  r.cases.back().error = "redis failed to start";
  const json j = json::parse(RenderReplicationJson(r));
  EXPECT_EQ(j["cases"][0]["engine"], "redis");
  EXPECT_FALSE(j["cases"][0].contains("error"));
  EXPECT_EQ(j["cases"][1]["error"], "redis failed to start");
  ReplicationRunResults back;
  std::string error;
  ASSERT_TRUE(FromJson(j, &back, &error)) << error;
  EXPECT_EQ(back.cases[1].error, "redis failed to start");
  EXPECT_EQ(CaseName(back.cases[0]), "redis qps=500");
  EXPECT_FALSE(j["cases"][0].contains("sync_series"));  // none recorded: left out
  EXPECT_FALSE(NamesNoEngine(back));
  ReplicationCase reference = back.cases[0];
  reference.engine.clear();
  EXPECT_EQ(CaseName(reference), "qps=500");
  // One engine: Run_Name is the run name alone, as the reference writes it.
  EXPECT_EQ(RenderReplicationCsv(r),
            "Run_Name,Time_Seconds,RPS_Now,p99_Latency_us\n"
            "qps=500,1,1000,250.5\n");
}

TEST(ReplicationSchema, CsvNamesEnginesOnlyWhenSeveralShareTheFile) {
  ReplicationRunResults r;
  // 4018.18 as a division leaves 4018.1800000000003 in the double.
  const double rps = 401818.0 * 0.01;
  ASSERT_NE(core::Format("{}", rps), "4018.18");
  r.cases.push_back(
      {.run_name = "qps=500", .series = {{.t_sec = 1.0000001, .rps = rps, .p99_us = 0.1 + 0.2}}});
  r.cases.back().engine = "redis";
  r.cases.push_back({.run_name = "qps=500", .series = {{.t_sec = 2, .rps = 7, .p99_us = 9}}});
  r.cases.back().engine = "valkey";
  EXPECT_EQ(RenderReplicationCsv(r),
            "Run_Name,Time_Seconds,RPS_Now,p99_Latency_us\n"
            "redis qps=500,1,4018.18,0.3\n"
            "valkey qps=500,2,7,9\n");
}

TEST(ReplicationSchema, CsvNumberRoundsToShortDecimals) {
  EXPECT_EQ(CsvNumber(401818.0 * 0.01, 3), "4018.18");
  EXPECT_EQ(CsvNumber(2646502, 3), "2646502");
  EXPECT_EQ(CsvNumber(0.0004, 3), "0");
  EXPECT_EQ(CsvNumber(-0.0004, 3), "0");
  EXPECT_EQ(CsvNumber(1.23456, 3), "1.235");
  EXPECT_EQ(CsvNumber(1.5, 0), "2");
}

TEST(ReplicationSchema, TheSyncWindowStaysOutOfTheMediansAndPrecedesTheSeriesInTheTimeline) {
  ReplicationCase c{.run_name = "qps=1000",
                    .series = {{.t_sec = 1, .rps = 2000, .p99_us = 300},
                               {.t_sec = 2, .rps = 2010, .p99_us = 310},
                               {.t_sec = 3, .rps = 1990, .p99_us = 290}},
                    .sync_duration_ms = 2400,
                    .sync_series = {{.t_sec = 1, .rps = 500, .p99_us = 90000},
                                    {.t_sec = 2, .rps = 600, .p99_us = 80000},
                                    {.t_sec = 3, .rps = 900, .p99_us = 40000}}};
  EXPECT_EQ(RpsStats(c).median, 2000);
  EXPECT_EQ(RpsStats(c).min, 1990);
  EXPECT_EQ(P99UsStats(c).median, 300);
  EXPECT_EQ(SustainedStartSec(c), 3);
  const std::vector<RepSample> all = Timeline(c);
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(all[2], (RepSample{.t_sec = 3, .rps = 900, .p99_us = 40000}));
  EXPECT_EQ(all[3], (RepSample{.t_sec = 4, .rps = 2000, .p99_us = 300}));
  EXPECT_EQ(all[5].t_sec, 6);

  // Written after the reference's fields, read back; the CSV holds the series only.
  ReplicationRunResults r;
  r.cases = {c};
  const json j = json::parse(RenderReplicationJson(r));
  EXPECT_EQ(j["cases"][0]["sync_series"].size(), 3u);
  EXPECT_EQ(j["cases"][0]["sync_series"][0]["rps"], 500);
  ReplicationRunResults back;
  std::string error;
  ASSERT_TRUE(FromJson(j, &back, &error)) << error;
  EXPECT_EQ(back.cases[0].sync_series, c.sync_series);
  EXPECT_EQ(RenderReplicationCsv(r),
            "Run_Name,Time_Seconds,RPS_Now,p99_Latency_us\n"
            "qps=1000,1,2000,300\n"
            "qps=1000,2,2010,310\n"
            "qps=1000,3,1990,290\n");

  // A reference case: no sync window, the series starts at the sync.
  ReplicationCase reference = c;
  reference.engine.clear();
  reference.sync_series.clear();
  EXPECT_EQ(SustainedStartSec(reference), 0);
  EXPECT_EQ(Timeline(reference), reference.series);
}

TEST(ReplicationSchema, FilesOfTheReferenceNameNoEngine) {
  ReplicationRunResults ours, reference;
  ours.cases = {{.run_name = "qps=1000"}, {.run_name = "maxload"}};
  for (auto& c : ours.cases) c.engine = "redis";
  reference.cases = {{.run_name = "qps=1000"}, {.run_name = "maxload"}};
  EXPECT_FALSE(NamesNoEngine(ours));
  EXPECT_TRUE(NamesNoEngine(reference));
  EXPECT_TRUE(RunNamesUnique(ours));
  ours.cases.push_back({.run_name = "qps=1000"});
  ours.cases.back().engine = "valkey";
  EXPECT_FALSE(RunNamesUnique(ours));
}

}  // namespace
}  // namespace dfbench::results
