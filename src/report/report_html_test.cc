#include "report/report_html.h"

#include <gtest/gtest.h>

#include "support/test_data.h"

namespace dfbench::report {
namespace {

using testing::CountOccurrences;
using testing::ExpectContainsAll;
using testing::ExpectContainsNone;

results::EngineResult Engine(const std::string& name, double tput) {
  results::EngineResult e;
  e.engine = name;
  e.version = name + " 7.0.15";
  for (int t = 1; t <= 3; ++t) {
    e.trials.push_back({.trial = t,
                        .throughput = tput + t * 1000,
                        .p50 = 0.5 + t * 0.01,
                        .p99 = 2.0 + t * 0.1,
                        .p999 = 4.0 + t * 0.1,
                        .avg_latency = 0.7 + t * 0.01});
  }
  e.Aggregate();
  return e;
}

ResultDocument RunDoc(const std::string& id, double redis_tput) {
  ResultDocument d;
  d.source = "/runs/" + id + "/results.json";
  d.shape = Shape::kRun;
  d.run.run_id = id;
  d.run.status = results::RunStatus::kCompleted;
  d.run.engines = {Engine("redis", redis_tput), Engine("memcached", 600000)};
  d.run.context.tool_version = "dfbench v0.1.0";
  d.run.context.hosts.push_back({.role = core::Role::Local(),
                                 .name = "bench-1",
                                 .cpu_model = "AMD EPYC 7B13",
                                 .vcpus = 8,
                                 .memory_bytes = 32ull << 30,
                                 .kernel = "6.1.0",
                                 .os = "Debian GNU/Linux 12",
                                 .arch = "x86_64",
                                 .cpus = {0, 1, 2, 3}});
  return d;
}

ResultDocument Replication(const std::string& id, const std::string& case_name) {
  ResultDocument d;
  d.source = id + ".json";
  d.shape = Shape::kReplication;
  d.replication.run_id = id;
  d.replication.master_instance = "c7g.4xlarge";
  results::ReplicationCase c;
  c.run_name = case_name;
  for (int t = 1; t <= 10; ++t) {
    c.series.push_back(
        {.t_sec = static_cast<double>(t), .rps = 100000.0 + t * 100, .p99_us = 2000.0 + t * 10});
  }
  c.sync_duration_ms = 3400;
  c.replica_flags = {"--replication_stream_compression=zstd"};
  d.replication.cases = {c};
  return d;
}

const ReportOptions kOptions{.generated_at = "2026-04-08T14:32:17Z",
                             .tool_version = "dfbench v0.1.0 (commit abc1234)"};

TEST(RenderHtmlReport, SelfContainedPageWithChartsPerFile) {
  const std::string html = RenderHtmlReport({RunDoc("20260408-143217", 500000)}, kOptions);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));
  ExpectContainsNone(html, {"<script", "https://", "class=\"comparison\""});
  EXPECT_EQ(CountOccurrences(html, "<svg class=\"chart bar-chart\""), 2u);
  // Throughput: one bar per engine; latency: three percentiles per engine.
  EXPECT_EQ(CountOccurrences(html, "class=\"bar\""), 2u + 6u);
  EXPECT_EQ(CountOccurrences(html, "class=\"whisker\""), 2u + 6u);
  ExpectContainsAll(
      html, {"Content-Security-Policy", "AMD EPYC 7B13", "<td>0-3</td>", "32.0 GiB", "redis 7.0.15",
             "Latency percentiles", "dfbench v0.1.0 (commit abc1234)"});
}

TEST(RenderHtmlReport, EscapesEverythingTakenFromFiles) {
  ResultDocument d = RunDoc("<script>alert(1)</script>", 500000);
  d.run.engines[0].engine = "<img src=x onerror=alert(1)>";
  d.run.engines[0].version = "\"><svg onload=alert(2)>";
  d.run.context.hosts[0].name = "</td><b>host</b>";
  d.run.memtier.ratio = "1:10<script>";
  ResultDocument r = Replication("rep", "qps=<i>1</i>");
  r.replication.cases[0].replica_flags = {"--x='\"><script>"};
  const std::string html = RenderHtmlReport({d, r}, kOptions);
  ExpectContainsNone(html, {"<script", "<img", "<svg onload", "<b>host", "<i>1"});
  ExpectContainsAll(html, {"&lt;img src=x onerror=alert(1)&gt;",
                           "&lt;script&gt;alert(1)&lt;/script&gt;", "qps=&lt;i&gt;1&lt;/i&gt;"});
}

// Each engine's recorded flags sit beside the load settings; an engine that records none (and a
// string value from a file) add no markup of their own.
TEST(RenderHtmlReport, EngineFlagsAreListedPerEngine) {
  ResultDocument d = RunDoc("run-1", 500000);
  const std::string none = RenderHtmlReport({d}, kOptions);
  EXPECT_EQ(none.find("engine flags"), std::string::npos);
  d.run.engines[0].engine = "dragonfly";
  d.run.engines[0].tuning = {{"proactor_threads", 2},
                             {"num_shards", 0},
                             {"conn_use_incoming_cpu", true},
                             {"cpus", {0, 1}},
                             {"note", "<b>x</b>"}};
  const std::string html = RenderHtmlReport({d}, kOptions);
  EXPECT_EQ(CountOccurrences(html, "engine flags"), 1u);
  ExpectContainsAll(html, {"<li><b>dragonfly</b> conn_use_incoming_cpu true · cpus [0,1] · note "
                           "&lt;b&gt;x&lt;/b&gt; · num_shards 0 · proactor_threads 2</li>"});
  ExpectContainsNone(html, {"<li><b>memcached</b>"});
}

TEST(RenderHtmlReport, ReplicationCasesGetLineChartsWithTheSyncPoint) {
  const std::string html = RenderHtmlReport({Replication("rep-1", "qps=100000")}, kOptions);
  EXPECT_EQ(CountOccurrences(html, "<svg class=\"chart line-chart\""), 2u);
  EXPECT_EQ(CountOccurrences(html, "class=\"marker-line\""), 2u);
  ExpectContainsAll(
      html, {"stable sync after 3.4 s", "--replication_stream_compression=zstd", "c7g.4xlarge"});
}

TEST(RenderHtmlReport, TwoFilesOfAShapeAreComparedWithVerdicts) {
  const std::string html = RenderHtmlReport(
      {RunDoc("20260408-143217", 500000), RunDoc("20260409-091802", 400000)}, kOptions);
  EXPECT_EQ(CountOccurrences(html, "<section class=\"comparison\""), 1u);
  ExpectContainsAll(html, {"Regression: redis throughput -19.9%", "badge verdict-regression",
                           "badge verdict-ok", "Throughput, baseline vs candidate"});
  // Two per-file sections of two charts, plus two side-by-side charts.
  EXPECT_EQ(CountOccurrences(html, "<svg class=\"chart bar-chart\""), 6u);
}

TEST(RenderHtmlReport, FilesWithNothingInCommonSayWhy) {
  ResultDocument a = Replication("rep-1", "qps=100000");
  ResultDocument b = Replication("rep-2", "maxload");
  const std::string html = RenderHtmlReport({a, b}, kOptions);
  EXPECT_NE(html.find("Not compared: nothing to compare"), std::string::npos);
}

TEST(RenderHtmlReport, ReplicationComparisonOverlaysBothSeries) {
  ResultDocument a = Replication("rep-1", "qps=100000");
  ResultDocument b = Replication("rep-2", "qps=100000");
  const std::string html = RenderHtmlReport({a, b}, kOptions);
  EXPECT_NE(html.find("No metric regressed beyond 5%"), std::string::npos);
  // Per file: rps and p99 charts; comparison: rps and p99 overlays with two lines each.
  EXPECT_EQ(CountOccurrences(html, "<svg class=\"chart line-chart\""), 6u);
  EXPECT_EQ(CountOccurrences(html, "class=\"series-line\""), 8u);
  EXPECT_NE(html.find("candidate sync 3.4 s"), std::string::npos);
}

// A failed trial is marked beside its engine's figures (which leave it out), with its reason,
// whether or not the engine's error names it.
TEST(RenderHtmlReport, FailedTrialsAreMarkedWithTheirReason) {
  ResultDocument d = RunDoc("failed", 500000);
  d.run.engines[0].trials[1].failed = "no request succeeded (5 errors)";
  d.run.engines[0].trials[2].failed =
      "12.00 % of requests failed (3 errors), above the 1 % allowed";
  d.run.engines[0].error = "trial 2 failed: no request succeeded (5 errors)";
  d.run.engines[0].Aggregate();
  const std::string html = RenderHtmlReport({d}, kOptions);
  ExpectContainsAll(html, {"3<span class=\"error\"> (2 failed)</span>",
                           "trial 2 failed: no request succeeded (5 errors)",
                           "trial 3 failed: 12.00 % of requests failed (3 errors), above the 1 % "
                           "allowed"});
  EXPECT_EQ(CountOccurrences(html, "trial 2 failed"), 1u);
  EXPECT_EQ(CountOccurrences(html, "failed)</span>"), 1u);  // memcached's trials all passed
}

// Several generators: each one's part of each trial in its own table, and client-bound trials
// marked beside their engine.
TEST(RenderHtmlReport, GeneratorsAndClientBoundTrialsAreShown) {
  ResultDocument d = RunDoc("split", 500000);
  EXPECT_EQ(RenderHtmlReport({d}, kOptions).find("Load generators"), std::string::npos);
  results::TrialResult& t = d.run.engines[0].trials[0];
  t.client_bound = true;
  t.clients = {{.name = "process 1",
                .threads = 2,
                .clients = 50,
                .throughput = 250000,
                .client_cpu = 0.5,
                .client_cpu_demand = 0.96,
                .client_bound = true},
               {.name = "process 2", .threads = 2, .clients = 50, .throughput = 250000}};
  const std::string html = RenderHtmlReport({d}, kOptions);
  ExpectContainsAll(html, {"<h3>Load generators</h3>", "process 1", "process 2", "2×50",
                           "50% / 96%", "client-bound in 1 of 3 trials: add load generators"});
}

TEST(EngineColor, FixedForKnownEnginesAndStableForOthers) {
  EXPECT_EQ(EngineColor("redis"), "#dc2626");
  EXPECT_EQ(EngineColor("dragonfly"), "#7c3aed");
  EXPECT_NE(EngineColor("valkey"), EngineColor("memcached"));
  const std::vector<std::string> known = {"redis", "keydb", "garnet"};
  EXPECT_EQ(EngineColor("keydb", known), EngineColor("keydb", known));
  EXPECT_NE(EngineColor("keydb", known), EngineColor("garnet", known));
}

}  // namespace
}  // namespace dfbench::report
