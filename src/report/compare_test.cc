#include "report/compare.h"

#include <gtest/gtest.h>

#include "results/json_util.h"
#include "support/test_data.h"

namespace dfbench::report {
namespace {

using nlohmann::json;

Measurement M(double value, double min, double max) {
  return Measurement{.value = value, .min = min, .max = max, .present = true};
}

const CompareOptions kDefault;
const CompareOptions kSignificance{.regression_pct = 5.0,
                                   .significance = Significance::kOutsideNoise};

TEST(CompareMetric, ThroughputDropBeyondThresholdIsARegression) {
  auto d = CompareMetric("throughput", Direction::kHigherIsBetter, M(100000, 98000, 102000),
                         M(90000, 89000, 91000), kDefault);
  ASSERT_TRUE(d.delta_pct.has_value());
  EXPECT_NEAR(*d.delta_pct, -10.0, 1e-12);
  EXPECT_EQ(d.verdict, Verdict::kRegression);
  EXPECT_TRUE(d.regressed);
  EXPECT_FALSE(d.spreads_overlap);
  EXPECT_EQ(VerdictLabel(d), "REGRESSION");
  EXPECT_EQ(FormatDelta(d), "-10.0%");
}

TEST(CompareMetric, ChangeOfExactlyTheThresholdIsWithinTolerance) {
  auto d = CompareMetric("throughput", Direction::kHigherIsBetter, M(100, 100, 100), M(95, 95, 95),
                         kDefault);
  EXPECT_NEAR(*d.delta_pct, -5.0, 1e-12);
  EXPECT_EQ(d.verdict, Verdict::kOk);
  EXPECT_FALSE(d.regressed);

  d = CompareMetric("p99", Direction::kLowerIsBetter, M(2, 2, 2), M(2.1, 2.1, 2.1), kDefault);
  EXPECT_NEAR(*d.delta_pct, 5.0, 1e-9);
  EXPECT_EQ(d.verdict, Verdict::kOk);
  // A tighter threshold turns the same change into a regression.
  d = CompareMetric("p99", Direction::kLowerIsBetter, M(2, 2, 2), M(2.1, 2.1, 2.1),
                    CompareOptions{.regression_pct = 2.0});
  EXPECT_EQ(d.verdict, Verdict::kRegression);
}

TEST(CompareMetric, LatencyRiseIsARegressionAndFallAnImprovement) {
  auto d =
      CompareMetric("p99", Direction::kLowerIsBetter, M(4.0, 3.9, 4.1), M(4.6, 4.5, 4.7), kDefault);
  EXPECT_NEAR(*d.delta_pct, 15.0, 1e-9);
  EXPECT_EQ(d.verdict, Verdict::kRegression);
  EXPECT_TRUE(d.regressed);

  d = CompareMetric("p99", Direction::kLowerIsBetter, M(4.0, 3.9, 4.1), M(3.0, 2.9, 3.1), kDefault);
  EXPECT_NEAR(*d.delta_pct, -25.0, 1e-9);
  EXPECT_EQ(d.verdict, Verdict::kImproved);
  EXPECT_FALSE(d.regressed);
  EXPECT_EQ(FormatDelta(d), "-25.0%");

  // Throughput up is an improvement.
  d = CompareMetric("throughput", Direction::kHigherIsBetter, M(1000, 990, 1010),
                    M(1200, 1190, 1210), kDefault);
  EXPECT_NEAR(*d.delta_pct, 20.0, 1e-9);
  EXPECT_EQ(d.verdict, Verdict::kImproved);
  EXPECT_EQ(FormatDelta(d), "+20.0%");
}

TEST(CompareMetric, OverlappingSpreadsRegressByDefaultButNotUnderRequireSignificance) {
  // -10% on the medians, but the trials overlap: [85..110] and [88..95].
  const Measurement base = M(100, 85, 110);
  const Measurement cand = M(90, 88, 95);
  auto d = CompareMetric("throughput", Direction::kHigherIsBetter, base, cand, kDefault);
  EXPECT_TRUE(d.spreads_overlap);
  EXPECT_EQ(d.verdict, Verdict::kRegression);
  EXPECT_TRUE(d.regressed);
  EXPECT_EQ(VerdictLabel(d), "REGRESSION (within noise)");

  d = CompareMetric("throughput", Direction::kHigherIsBetter, base, cand, kSignificance);
  EXPECT_TRUE(d.spreads_overlap);
  EXPECT_EQ(d.verdict, Verdict::kWithinNoise);
  EXPECT_FALSE(d.regressed);
  EXPECT_EQ(VerdictLabel(d), "within noise");

  // Outside the noise, require-significance still fails.
  d = CompareMetric("throughput", Direction::kHigherIsBetter, M(100, 99, 101), M(90, 89, 91),
                    kSignificance);
  EXPECT_FALSE(d.spreads_overlap);
  EXPECT_EQ(d.verdict, Verdict::kRegression);
  EXPECT_TRUE(d.regressed);

  // Spreads that touch at one point overlap.
  d = CompareMetric("throughput", Direction::kHigherIsBetter, M(100, 95, 105), M(90, 85, 95),
                    kSignificance);
  EXPECT_TRUE(d.spreads_overlap);
  EXPECT_EQ(d.verdict, Verdict::kWithinNoise);
}

TEST(CompareMetric, ImprovementWithOverlappingSpreadsIsWithinNoise) {
  auto d =
      CompareMetric("avg_latency", Direction::kLowerIsBetter, M(5, 4, 7), M(4, 3.5, 4.5), kDefault);
  EXPECT_NEAR(*d.delta_pct, -20.0, 1e-9);
  EXPECT_TRUE(d.spreads_overlap);
  EXPECT_EQ(d.verdict, Verdict::kWithinNoise);
  EXPECT_FALSE(d.regressed);
}

TEST(CompareMetric, SmallChangeIsOkEvenWithoutOverlap) {
  auto d = CompareMetric("throughput", Direction::kHigherIsBetter, M(1000, 1000, 1000),
                         M(980, 980, 980), kDefault);
  EXPECT_NEAR(*d.delta_pct, -2.0, 1e-9);
  EXPECT_FALSE(d.spreads_overlap);
  EXPECT_EQ(d.verdict, Verdict::kOk);
  EXPECT_EQ(VerdictLabel(d), "ok");
}

TEST(CompareMetric, AbsentValues) {
  auto d = CompareMetric("p50", Direction::kLowerIsBetter, Measurement{}, M(1, 1, 1), kDefault);
  EXPECT_EQ(d.verdict, Verdict::kNotComparable);
  EXPECT_FALSE(d.regressed);
  EXPECT_FALSE(d.delta_pct.has_value());
  EXPECT_EQ(FormatDelta(d), "n/a");

  d = CompareMetric("p50", Direction::kLowerIsBetter, M(1, 1, 1), Measurement{}, kDefault);
  EXPECT_EQ(d.verdict, Verdict::kMissing);
  EXPECT_TRUE(d.regressed);
  EXPECT_EQ(FormatDelta(d), "missing");

  d = CompareMetric("p50", Direction::kLowerIsBetter, Measurement{}, Measurement{}, kDefault);
  EXPECT_EQ(d.verdict, Verdict::kNotComparable);
  EXPECT_FALSE(d.regressed);
}

TEST(CompareMetric, SummaryWithoutSpreadSpreadsOverItsValue) {
  auto d =
      CompareMetric("throughput", Direction::kHigherIsBetter, M(100, 0, 0), M(100, 0, 0), kDefault);
  EXPECT_EQ(d.baseline.min, 100);
  EXPECT_EQ(d.baseline.max, 100);
  EXPECT_TRUE(d.spreads_overlap);
  EXPECT_EQ(*d.delta_pct, 0);
  EXPECT_EQ(d.verdict, Verdict::kOk);
}

TEST(Measurement, FromStatsAndValue) {
  EXPECT_FALSE(FromStats(results::Stats{}).present);
  Measurement m = FromStats(results::Stats{.median = 3, .min = 2, .max = 4, .stddev = 1});
  EXPECT_TRUE(m.present);
  EXPECT_EQ(m.value, 3);
  EXPECT_EQ(m.min, 2);
  EXPECT_EQ(m.max, 4);
  EXPECT_FALSE(FromValue(0).present);
  EXPECT_TRUE(FromValue(3427).present);
  EXPECT_EQ(FromValue(3427).min, 3427);
}

// ---- Whole documents ----

results::EngineResult Engine(const std::string& name, double tput, double tput_min, double tput_max,
                             double p99) {
  results::EngineResult e;
  e.engine = name;
  e.version = name + " 7.0.15";
  e.throughput = {.median = tput, .min = tput_min, .max = tput_max, .stddev = 1};
  e.p50 = {.median = 1.0, .min = 0.9, .max = 1.1, .stddev = 0.1};
  e.p99 = {.median = p99, .min = p99 * 0.98, .max = p99 * 1.02, .stddev = 0.1};
  e.p999 = {.median = 9.0, .min = 8.5, .max = 9.5, .stddev = 0.2};
  e.avg_latency = {.median = 1.2, .min = 1.1, .max = 1.3, .stddev = 0.1};
  return e;
}

ResultDocument RunDoc(std::string source, std::vector<results::EngineResult> engines) {
  ResultDocument d{.source = std::move(source), .shape = Shape::kRun};
  d.run.run_id = "20260408-143217";
  d.run.engines = std::move(engines);
  return d;
}

TEST(Compare, IdenticalRunsHaveNoRegression) {
  auto doc = RunDoc("a.json", {Engine("redis", 500000, 490000, 510000, 2.0),
                               Engine("memcached", 600000, 590000, 610000, 1.5)});
  auto c = Compare(doc, doc, kDefault);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->shape, Shape::kRun);
  ASSERT_EQ(c->groups.size(), 2u);
  EXPECT_EQ(c->groups[0].engine, "redis");
  ASSERT_EQ(c->groups[0].metrics.size(), 5u);
  for (const auto& g : c->groups) {
    for (const auto& m : g.metrics) {
      EXPECT_EQ(m.verdict, Verdict::kOk) << g.engine << " " << m.metric;
      EXPECT_EQ(*m.delta_pct, 0);
      EXPECT_TRUE(m.spreads_overlap);
    }
  }
  EXPECT_FALSE(c->Regressed());
  EXPECT_TRUE(c->only_in_baseline.empty());
  EXPECT_TRUE(c->notes.empty());
}

TEST(Compare, NamesRegressedMetricsAndEnginesInOneFileOnly) {
  auto base = RunDoc("a.json", {Engine("redis", 500000, 490000, 510000, 2.0),
                                Engine("valkey", 520000, 510000, 530000, 2.0)});
  auto cand = RunDoc("b.json", {Engine("redis", 450000, 440000, 460000, 2.5),
                                Engine("dragonfly", 900000, 890000, 910000, 1.0)});
  cand.run.engines[0].version = "redis 7.2.4";
  cand.run.memtier.pipeline = 10;
  auto c = Compare(base, cand, kDefault);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->groups.size(), 1u);
  EXPECT_EQ(c->groups[0].regressions, (std::vector<std::string>{"throughput", "p99"}));
  EXPECT_NEAR(*c->groups[0].metrics[0].delta_pct, -10.0, 1e-9);
  EXPECT_NEAR(*c->groups[0].metrics[2].delta_pct, 25.0, 1e-9);
  EXPECT_EQ(c->only_in_baseline, std::vector<std::string>{"valkey"});
  EXPECT_EQ(c->only_in_candidate, std::vector<std::string>{"dragonfly"});
  EXPECT_TRUE(c->Regressed());
  EXPECT_EQ(c->RegressionList(),
            (std::vector<std::string>{"redis throughput -10.0%", "redis p99 +25.0%"}));
  EXPECT_EQ(c->notes, (std::vector<std::string>{"redis version: redis 7.0.15 -> redis 7.2.4",
                                                "memtier.pipeline: 30 -> 10"}));

  const std::string table = RenderComparisonTable(*c);
  testing::ExpectContainsAll(
      table, {"only in baseline: valkey", "only in candidate: dragonfly",
              "REGRESSION: 2 metrics beyond 5%: redis throughput -10.0%, redis p99 +25.0%",
              "[490k..510k]", "500,000"});
}

// Dragonfly's flags change what is measured as much as its version does (shards, proactors,
// incoming-CPU): a difference is noted; a flag one file does not record says nothing.
TEST(Compare, NotesEngineTuningThatDiffers) {
  auto base = RunDoc("a.json", {Engine("dragonfly", 500000, 490000, 510000, 2.0),
                                Engine("redis", 400000, 390000, 410000, 2.0)});
  auto cand = base;
  base.run.engines[0].tuning = {
      {"num_shards", 0}, {"conn_use_incoming_cpu", true}, {"proactor_threads", 1}, {"cpus", {0}}};
  cand.run.engines[0].tuning = {{"num_shards", 2},
                                {"conn_use_incoming_cpu", true},
                                {"proactor_threads", 2},
                                {"pin_network", true}};
  cand.run.engines[1].tuning = {{"io_threads", 4}};  // the baseline's redis records none
  auto c = Compare(base, cand, kDefault);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->Regressed());
  EXPECT_EQ(c->notes, (std::vector<std::string>{"dragonfly.tuning.num_shards: 0 -> 2",
                                                "dragonfly.tuning.proactor_threads: 1 -> 2"}));
}

// A topology or a client profile that differs changes what is measured: both are noted, in
// words, whichever side has none.
TEST(Compare, NotesTopologyAndClientProfileThatDiffer) {
  auto base = RunDoc("a.json", {Engine("redis", 500000, 490000, 510000, 2.0),
                                Engine("dragonfly", 600000, 590000, 610000, 2.0)});
  auto cand = base;
  base.run.engines[0].tuning = {{"io_threads", 0}};
  cand.run.engines[0].tuning = {{"io_threads", 0}, {"shards", 2}, {"shard_ports", {7001, 7002}}};
  cand.run.engines[0].client_profile =
      core::ClientProfile{.threads = 24, .clients = 1, .pipeline = 30};
  base.run.engines[1].tuning = {{"cluster_mode", "emulated"}};
  auto c = Compare(base, cand, kDefault);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->notes,
            (std::vector<std::string>{
                "redis topology: one process -> 2 shards",
                "redis client profile: the run's load -> 24 threads x 1 clients, pipeline 30",
                "dragonfly topology: emulated cluster -> one process"}));
}

// A client-bound trial is compared but noted; so is a change in the number of generators.
TEST(Compare, NotesClientBoundTrialsAndTheGeneratorsThatDrove) {
  auto base = RunDoc("a.json", {Engine("redis", 500000, 490000, 510000, 2.0)});
  auto cand = base;
  results::TrialResult bound;
  bound.trial = 2;
  bound.client_bound = true;
  bound.client_cpu_demand = 0.97;
  base.run.engines[0].trials = {bound};
  results::TrialResult split;
  split.trial = 1;
  split.clients = {{.name = "process 1"}, {.name = "process 2"}};
  cand.run.engines[0].trials = {split};
  auto c = Compare(base, cand, kDefault);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->notes, (std::vector<std::string>{
                          "baseline redis trial 2 client-bound (the load generator wanted 97% of "
                          "its CPUs): add load generators",
                          "redis load generators: 1 -> 2"}));
}

TEST(Compare, ShapesMustMatchAndShareSomething) {
  auto run = RunDoc("a.json", {Engine("redis", 1, 1, 1, 1)});
  ResultDocument rep;
  rep.source = "b.json";
  rep.shape = Shape::kReplication;
  rep.replication.cases.push_back({.run_name = "qps=1000"});
  auto c = Compare(run, rep, kDefault);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(c.error().message.find("cannot compare run with replication"), std::string::npos)
      << c.error().message;

  auto other = RunDoc("c.json", {Engine("valkey", 1, 1, 1, 1)});
  c = Compare(run, other, kDefault);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(c.error().message,
            "nothing to compare: no engine is in both files (baseline a.json: redis; candidate "
            "c.json: valkey)");
}

ResultDocument CommandsDoc(std::vector<CommandEntry> commands) {
  ResultDocument d{.source = "cmd.json", .shape = Shape::kCommands};
  d.commands.commands = std::move(commands);
  return d;
}

TEST(Compare, PerCommandFilesCompareEachCommandAndEngine) {
  auto base = CommandsDoc(
      {{.command = "SET",
        .engines = {Engine("redis", 100, 100, 100, 1), Engine("valkey", 100, 100, 100, 1)}},
       {.command = "GET", .engines = {Engine("redis", 100, 100, 100, 1)}}});
  auto cand = CommandsDoc({{.command = "SET", .engines = {Engine("redis", 100, 100, 100, 1.2)}},
                           {.command = "LPUSH", .engines = {Engine("redis", 100, 100, 100, 1)}}});
  cand.commands.tool = "dfly_bench";
  auto c = Compare(base, cand, kDefault);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->groups.size(), 1u);
  EXPECT_EQ(c->groups[0].command, "SET");
  EXPECT_EQ(c->groups[0].engine, "redis");
  EXPECT_EQ(c->groups[0].Label(), "SET redis");
  EXPECT_EQ(c->groups[0].regressions, std::vector<std::string>{"p99"});
  EXPECT_EQ(c->only_in_baseline, (std::vector<std::string>{"SET/valkey", "GET"}));
  EXPECT_EQ(c->only_in_candidate, std::vector<std::string>{"LPUSH"});
  EXPECT_EQ(c->notes, std::vector<std::string>{"tool: memtier -> dfly_bench"});
}

results::ReplicationCase Case(const std::string& name, std::vector<double> rps,
                              std::vector<double> p99, double sync_ms) {
  results::ReplicationCase c;
  c.run_name = name;
  for (size_t i = 0; i < rps.size(); ++i) {
    c.series.push_back({.t_sec = static_cast<double>(i + 1), .rps = rps[i], .p99_us = p99[i]});
  }
  c.sync_duration_ms = sync_ms;
  c.termination_reason = "timeout";
  return c;
}

ResultDocument ReplicationDoc(std::vector<results::ReplicationCase> cases) {
  ResultDocument d{.source = "rep.json", .shape = Shape::kReplication};
  d.replication.cases = std::move(cases);
  return d;
}

TEST(Compare, ReplicationCasesUseSeriesMediansAndSpreads) {
  auto base = ReplicationDoc({Case("qps=100000", {100, 300, 200}, {2000, 2200, 2100}, 3000),
                              Case("maxload", {500, 500}, {900, 900}, 4000)});
  auto cand = ReplicationDoc({Case("qps=100000", {180, 150, 160}, {2000, 2500, 2400}, 3300),
                              Case("qps=50000", {1}, {1}, 1)});
  cand.replication.cases[0].replica_flags = {"--replication_stream_compression=zstd"};
  auto c = Compare(base, cand, kDefault);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->groups.size(), 1u);
  const auto& g = c->groups[0];
  EXPECT_EQ(g.run_name, "qps=100000");
  ASSERT_EQ(g.metrics.size(), 3u);
  EXPECT_EQ(g.metrics[0].metric, "median_rps");
  EXPECT_EQ(g.metrics[0].baseline.value, 200);
  EXPECT_EQ(g.metrics[0].baseline.min, 100);
  EXPECT_EQ(g.metrics[0].baseline.max, 300);
  EXPECT_EQ(g.metrics[0].candidate.value, 160);
  EXPECT_NEAR(*g.metrics[0].delta_pct, -20.0, 1e-9);
  EXPECT_TRUE(g.metrics[0].spreads_overlap);
  EXPECT_EQ(g.metrics[0].verdict, Verdict::kRegression);
  EXPECT_EQ(g.metrics[1].metric, "median_p99_us");
  EXPECT_EQ(g.metrics[1].candidate.value, 2400);
  EXPECT_NEAR(*g.metrics[1].delta_pct, 2400.0 / 2100 * 100 - 100, 1e-9);
  EXPECT_EQ(g.metrics[1].verdict, Verdict::kRegression);
  EXPECT_EQ(g.metrics[2].metric, "sync_duration_ms");
  EXPECT_NEAR(*g.metrics[2].delta_pct, 10.0, 1e-9);
  EXPECT_FALSE(g.metrics[2].spreads_overlap);
  EXPECT_EQ(g.regressions,
            (std::vector<std::string>{"median_rps", "median_p99_us", "sync_duration_ms"}));
  EXPECT_EQ(c->only_in_baseline, std::vector<std::string>{"maxload"});
  EXPECT_EQ(c->only_in_candidate, std::vector<std::string>{"qps=50000"});
  EXPECT_EQ(c->notes, std::vector<std::string>{
                          "qps=100000.replica_flags: [] -> [\"--replication_stream_compression="
                          "zstd\"]"});

  // Under --require-significance the overlapping rps and p99 changes no longer count; the
  // sync duration has no spread, so its change does.
  c = Compare(base, cand, kSignificance);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->groups[0].metrics[0].verdict, Verdict::kWithinNoise);
  EXPECT_EQ(c->groups[0].metrics[1].verdict, Verdict::kWithinNoise);
  EXPECT_EQ(c->groups[0].regressions, std::vector<std::string>{"sync_duration_ms"});
}

TEST(Compare, AReferenceCaseMeetsOursByRunNameAndTheSyncWindowStaysOut) {
  // The reference's file names no engine; ours (one engine) does and keeps its sync window.
  auto reference = ReplicationDoc({Case("qps=1000", {2000, 1990, 2010}, {300, 310, 290}, 1500)});
  results::ReplicationCase mine = Case("qps=1000", {2000, 1980, 2020}, {300, 320, 280}, 1500);
  mine.engine = "redis";
  mine.sync_series = {{.t_sec = 1, .rps = 10, .p99_us = 90000},
                      {.t_sec = 2, .rps = 20, .p99_us = 80000}};
  auto ours = ReplicationDoc({mine});
  for (const auto& [b, c] : {std::pair{reference, ours}, std::pair{ours, reference}}) {
    auto cmp = Compare(b, c, kDefault);
    ASSERT_TRUE(cmp) << cmp.error().message;
    ASSERT_EQ(cmp->groups.size(), 1u);
    EXPECT_TRUE(cmp->only_in_baseline.empty());
    EXPECT_TRUE(cmp->only_in_candidate.empty());
    for (const auto& m : cmp->groups[0].metrics) {
      EXPECT_EQ(*m.delta_pct, 0) << m.metric;  // the sync window's 10 and 20 rps stay out
    }
  }
  // Two engines' cases of one name cannot meet one reference case: named apart, they share
  // nothing, which is an input error.
  results::ReplicationCase theirs = mine;
  theirs.engine = "valkey";
  auto c = Compare(reference, ReplicationDoc({mine, theirs}), kDefault);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, core::ErrorKind::kUsage) << c.error().message;
  EXPECT_NE(c.error().message.find("redis qps=1000"), std::string::npos) << c.error().message;
}

TEST(RenderComparisonJson, GroupsAndRegressionsAreSelectable) {
  auto base = ReplicationDoc({Case("qps=100000", {100, 100}, {2000, 2000}, 3000),
                              Case("maxload", {500, 500}, {900, 900}, 4000)});
  auto cand = ReplicationDoc({Case("qps=100000", {100, 100}, {2000, 2000}, 3000),
                              Case("maxload", {400, 400}, {900, 900}, 4000)});
  auto c = Compare(base, cand, kDefault);
  ASSERT_TRUE(c);
  json j = json::parse(RenderComparisonJson(*c));
  EXPECT_EQ(j["shape"], "replication");
  EXPECT_EQ(j["regression_pct"], 5);
  EXPECT_EQ(j["regressed"], true);
  ASSERT_EQ(j["cases"].size(), 2u);
  // The equivalent of jq '.cases[] | select(.regressions != [])'.
  std::vector<json> regressed;
  for (const auto& k : j["cases"]) {
    if (k["regressions"] != json::array()) regressed.push_back(k);
  }
  ASSERT_EQ(regressed.size(), 1u);
  EXPECT_EQ(regressed[0]["run_name"], "maxload");
  EXPECT_EQ(regressed[0]["regressions"], json::array({"median_rps"}));
  EXPECT_EQ(j["rows"].size(), 6u);
  EXPECT_EQ(j["rows"][3]["run_name"], "maxload");
  EXPECT_EQ(j["rows"][3]["metric"], "median_rps");
  EXPECT_EQ(j["rows"][3]["delta_pct"], -20);
  EXPECT_EQ(j["rows"][3]["verdict"], "regression");
  EXPECT_EQ(j["rows"][3]["baseline_min"], 500);
  ASSERT_EQ(j["regressions"].size(), 1u);
  EXPECT_EQ(j["regressions"][0], json::parse(R"({"run_name": "maxload", "metric": "median_rps",
                                                  "delta_pct": -20, "verdict": "regression"})"));
  EXPECT_EQ(j["only_in_baseline"], json::array());
  EXPECT_FALSE(j.contains("engines"));
}

TEST(RenderComparisonJson, RunShapeHasEnginesArray) {
  auto doc = RunDoc("a.json", {Engine("redis", 500000, 490000, 510000, 2.0)});
  auto c = Compare(doc, doc, kDefault);
  ASSERT_TRUE(c);
  json j = json::parse(RenderComparisonJson(*c));
  EXPECT_EQ(j["shape"], "run");
  ASSERT_EQ(j["engines"].size(), 1u);
  EXPECT_EQ(j["engines"][0]["engine"], "redis");
  EXPECT_EQ(j["engines"][0]["regressions"], json::array());
  EXPECT_EQ(j["engines"][0]["metrics"].size(), 5u);
  EXPECT_EQ(j["regressed"], false);
  EXPECT_EQ(j["rows"][0]["direction"], "higher_is_better");
  EXPECT_EQ(j["rows"][1]["direction"], "lower_is_better");
}

// Less memory and a shorter snapshot are better; an engine without a snapshot has none to rank.
TEST(Compare, MemoryRunsRankIdlePeakAndSnapshotLowerIsBetter) {
  auto doc = [](double idle, double peak, double snapshot_ms) {
    ResultDocument d{.source = "m.json", .shape = Shape::kMemory};
    d.memory.engines.push_back({.idle_bytes = {.median = idle},
                                .peak_bytes = {.median = peak},
                                .snapshot_duration_ms = {.median = snapshot_ms}});
    d.memory.engines.back().engine = "redis";
    d.memory.engines.push_back({.idle_bytes = {.median = idle}});
    d.memory.engines.back().engine = "memcached";
    return d;
  };
  auto c = Compare(doc(100, 200, 1000), doc(100, 300, 800), kDefault);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->groups.size(), 2u);
  const GroupComparison& redis = c->groups[0];
  ASSERT_EQ(redis.metrics.size(), 3u);
  EXPECT_EQ(redis.metrics[0].metric, "idle_bytes");
  EXPECT_EQ(redis.metrics[0].verdict, Verdict::kOk);
  EXPECT_EQ(redis.metrics[1].verdict, Verdict::kRegression);
  EXPECT_EQ(redis.metrics[2].verdict, Verdict::kImproved);
  EXPECT_EQ(redis.regressions, std::vector<std::string>{"peak_bytes"});
  EXPECT_EQ(c->groups[1].metrics[2].verdict, Verdict::kNotComparable);
  EXPECT_TRUE(c->Regressed());
  EXPECT_NE(RenderComparisonTable(*c).find("peak memory (bytes)"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::report
