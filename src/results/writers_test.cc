#include "results/writers.h"

#include <gtest/gtest.h>

#include "results/test_fixtures.h"

namespace dfbench::results {
namespace {

using testing::Trial;

RunResults ThreeEngines() {
  RunResults r;
  r.run_id = "20260408-143217";
  r.status = RunStatus::kCompleted;
  r.trials = 3;
  EngineResult dragonfly{{.engine = "dragonfly", .version = "dragonfly v1.27.0"}};
  dragonfly.trials = {Trial(1, 2646502, 0.559, 1.215, 2.303, 0.612),
                      Trial(2, 2601000, 0.567, 1.231, 2.415, 0.620),
                      Trial(3, 2672000, 0.551, 1.199, 2.287, 0.605)};
  EngineResult redis{{.engine = "redis", .version = "Redis server v=7.4"}};
  redis.trials = {Trial(1, 1210000, 1.103, 2.511, 3.007, 1.187),
                  Trial(2, 1300000, 1.095, 2.479, 2.991, 1.176),
                  Trial(3, 1250000, 1.099, 2.495, 3.103, 1.181)};
  r.engines = {dragonfly, redis};
  for (auto& e : r.engines) e.Aggregate();
  return r;
}

TEST(RenderRunTable, ColumnsLineUp) {
  EXPECT_EQ(RenderRunTable(ThreeEngines()),
            "run 20260408-143217 · 3 trials · 4 threads × 50 clients · pipeline 30 · ratio 1:10 "
            "· 256 B\n"
            "ENGINE     VERSION               OPS/SEC           RANGE  P50 ms  P99 ms  P99.9 ms  "
            "AVG ms\n"
            "dragonfly  dragonfly v1.27.0   2,646,502  [2.60M..2.67M]   0.559   1.215     2.303  "
            " 0.612\n"
            "redis      Redis server v=7.4  1,250,000  [1.21M..1.30M]   1.099   2.495     3.007  "
            " 1.181\n");
}

// A cluster is named by its shards; an engine with its own client profile is marked, and the
// table says the loads differ.
TEST(RenderRunTable, NamesTopologiesAndMarksClientProfiles) {
  RunResults r = ThreeEngines();
  r.engines[0].tuning = {{"cluster_mode", "emulated"}};
  r.engines[1].tuning = {{"shards", 3}};
  r.engines[1].client_profile = core::ClientProfile{.threads = 24, .clients = 1, .pipeline = 30};
  r.memtier.test_time_sec = 180;
  EXPECT_EQ(RenderRunTable(r),
            "run 20260408-143217 · 3 trials · 4 threads × 50 clients · pipeline 30 · ratio 1:10 "
            "· 256 B · 180 s each\n"
            "ENGINE                              VERSION               OPS/SEC           RANGE"
            "  P50 ms  P99 ms  P99.9 ms  AVG ms\n"
            "dragonfly (emulated cluster)        dragonfly v1.27.0   2,646,502  [2.60M..2.67M]"
            "   0.559   1.215     2.303   0.612\n"
            "redis (3 shards) [client 24x1 p30]  Redis server v=7.4  1,250,000  [1.21M..1.30M]"
            "   1.099   2.495     3.007   1.181\n"
            "[client TxC pP]: that engine's own client profile (threads x clients, pipeline); the "
            "engines did not get the same load\n");
}

// --per-client: a row per generator of each trial, its share, figures, CPU and start offset;
// nothing when every trial had one generator. The engine's row notes client-bound trials.
TEST(RenderClientTable, OneRowPerGeneratorOfEachTrial) {
  RunResults r = ThreeEngines();
  EXPECT_EQ(RenderClientTable(r.engines), "");
  TrialResult& t = r.engines[1].trials[0];
  t.client_bound = true;
  t.clients = {{.name = "process 1",
                .threads = 2,
                .clients = 50,
                .throughput = 600000,
                .p50 = 1.1,
                .p99 = 2.5,
                .p999 = 3.0,
                .client_cpu = 0.5,
                .client_cpu_demand = 0.5},
               {.name = "process 2",
                .threads = 2,
                .clients = 50,
                .throughput = 610000,
                .p50 = 1.2,
                .p99 = 2.6,
                .p999 = 3.1,
                .client_cpu = 0.6,
                .client_cpu_demand = 0.95,
                .start_offset_ms = 0.25,
                .client_bound = true}};
  EXPECT_EQ(RenderClientTable(r.engines),
            "ENGINE  TRIAL  GENERATOR  CONNS  OPS/SEC  P50 ms  P99 ms  P99.9 ms  CPU  WANTED  "
            "START +ms  NOTE\n"
            "redis       1  process 1   2x50  600,000   1.100   2.500     3.000  50%     50%      "
            "0.000\n"
            "redis       1  process 2   2x50  610,000   1.200   2.600     3.100  60%     95%      "
            "0.250  client-bound\n");
  EXPECT_NE(RenderRunTable(r).find("client-bound in 1 of 3 trials (add load generators)"),
            std::string::npos);
}

TEST(RenderRunTable, NoteColumnOnlyWhenAnEngineFailed) {
  RunResults r = ThreeEngines();
  r.status = RunStatus::kFailed;
  r.engines[1].approximate = true;
  EngineResult valkey{{.engine = "valkey", .version = "Valkey server v=7.2"}};
  valkey.error = "valkey-server exited: exit code 1\nlog tail follows";
  r.engines.push_back(valkey);
  EXPECT_EQ(RenderRunTable(r),
            "run 20260408-143217 · 3 trials · 4 threads × 50 clients · pipeline 30 · ratio 1:10 "
            "· 256 B · failed\n"
            "ENGINE     VERSION                OPS/SEC           RANGE  P50 ms  P99 ms  P99.9 ms  "
            "AVG ms  NOTE\n"
            "dragonfly  dragonfly v1.27.0    2,646,502  [2.60M..2.67M]   0.559   1.215     2.303  "
            " 0.612\n"
            "redis      Redis server v=7.4   1,250,000  [1.21M..1.30M]   1.099   2.495     3.007  "
            " 1.181  approximate\n"
            "valkey     Valkey server v=7.2          -               -       -       -         -  "
            "     -  valkey-server exited: exit code 1\n");
}

TEST(RenderRunTable, ShortRangesAndSingleTrials) {
  RunResults r;
  r.trials = 1;
  EngineResult a{{.engine = "a"}};
  a.trials = {Trial(1, 85200, 1, 1, 1, 1), Trial(2, 999999, 1, 1, 1, 1)};
  EngineResult b{{.engine = "b"}};
  b.trials = {Trial(1, 812.4, 1, 1, 1, 1)};
  r.engines = {a, b};
  for (auto& e : r.engines) e.Aggregate();
  EXPECT_EQ(RenderRunTable(r),
            "1 trial · 4 threads × 50 clients · pipeline 30 · ratio 1:10 · 256 B\n"
            "ENGINE  VERSION  OPS/SEC           RANGE  P50 ms  P99 ms  P99.9 ms  AVG ms\n"
            "a       -        542,600  [85.2k..1.00M]   1.000   1.000     1.000   1.000\n"
            "b       -            812               -   1.000   1.000     1.000   1.000\n");
}

TEST(RenderRunCsv, TrialRowsThenMedianRowsWithQuoting) {
  RunResults r = ThreeEngines();
  r.engines[1].version = "Redis \"custom\", build 7";
  r.engines[0].trials[0].ops = 5000000;
  r.engines[0].trials[0].errors = 2;
  r.engines[0].trials[0].duration_sec = 1.889;
  // An engine that failed before its first trial has one row naming why, and no median row.
  r.engines.push_back(EngineResult{{.engine = "valkey", .error = "did not start"}});
  EXPECT_EQ(
      RenderRunCsv(r),
      "engine,version,trial,throughput,p50,p99,p999,avg_latency,ops,errors,duration_sec,failed\n"
      "dragonfly,dragonfly v1.27.0,1,2646502,0.559,1.215,2.303,0.612,5000000,2,1.889,\n"
      "dragonfly,dragonfly v1.27.0,2,2601000,0.567,1.231,2.415,0.62,0,0,0,\n"
      "dragonfly,dragonfly v1.27.0,3,2672000,0.551,1.199,2.287,0.605,0,0,0,\n"
      "redis,\"Redis \"\"custom\"\", build 7\",1,1210000,1.103,2.511,3.007,1.187,0,0,0,\n"
      "redis,\"Redis \"\"custom\"\", build 7\",2,1300000,1.095,2.479,2.991,1.176,0,0,0,\n"
      "redis,\"Redis \"\"custom\"\", build 7\",3,1250000,1.099,2.495,3.103,1.181,0,0,0,\n"
      "valkey,,,,,,,,,,,did not start\n"
      "dragonfly,dragonfly v1.27.0,median,2646502,0.559,1.215,2.303,0.612,,,,\n"
      "redis,\"Redis \"\"custom\"\", build 7\",median,1250000,1.099,2.495,3.007,1.181,,,,\n");
}

TEST(RenderRunCsv, QuotesLineBreaks) {
  RunResults r;
  EngineResult e{{.engine = "x", .version = "two\nlines"}};
  e.trials = {Trial(1, 1.5, 0.25, 0.5, 1, 0.3)};
  e.Aggregate();
  r.engines = {e};
  EXPECT_EQ(
      RenderRunCsv(r),
      "engine,version,trial,throughput,p50,p99,p999,avg_latency,ops,errors,duration_sec,failed\n"
      "x,\"two\nlines\",1,1.5,0.25,0.5,1,0.3,0,0,0,\n"
      "x,\"two\nlines\",median,1.5,0.25,0.5,1,0.3,,,,\n");
}

TEST(RenderRunCsv, OutsideTextComesOutClean) {
  RunResults r;
  EngineResult e{{.engine = "x", .version = "\x1b[31m7.2\x1b[0m\xc2\x9b"}};
  e.trials = {Trial(1, 1.5, 0.25, 0.5, 1, 0.3)};
  e.Aggregate();
  r.engines = {e};
  const std::string csv = RenderRunCsv(r);
  EXPECT_EQ(csv.find('\x1b'), std::string::npos) << csv;
  EXPECT_NE(csv.find("x,7.2\\x9b,1,"), std::string::npos) << csv;
}

TEST(RenderRunCsv, AFailedTrialSaysWhyInTheFailedColumn) {
  RunResults r;
  EngineResult e{{.engine = "x"}};
  e.trials = {Trial(1, 1.5, 0.25, 0.5, 1, 0.3), Trial(2, 9, 9, 9, 9, 9)};
  e.trials[1].errors = 90;
  e.trials[1].ops = 10;
  e.trials[1].failed = TrialFailure(e.trials[1], kDefaultMaxErrorPct);
  ASSERT_FALSE(e.trials[1].failed.empty());
  e.Aggregate();
  r.engines = {e};
  EXPECT_EQ(RenderRunCsv(r),
            "engine,version,trial,throughput,p50,p99,p999,avg_latency,ops,errors,duration_sec,"
            "failed\n"
            "x,,1,1.5,0.25,0.5,1,0.3,0,0,0,\n"
            "x,,2,9,9,9,9,9,10,90,0,\"" +
                e.trials[1].failed +
                "\"\n"
                "x,,median,1.5,0.25,0.5,1,0.3,,,,\n");
}

}  // namespace
}  // namespace dfbench::results
