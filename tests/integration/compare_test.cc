// `dfbench compare` end to end: the real binary on result files of every shape, ours (made by
// running the real quickstart) and the reference's (tests/fixtures/results/).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <functional>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

std::string Write(const DfbenchRunner& dfb, const std::string& name, const std::string& text) {
  const auto path = dfb.home() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string Write(const DfbenchRunner& dfb, const std::string& name, const json& j) {
  return Write(dfb, name, j.dump(2));
}

// A results.json of our own `run`, made once by running the real quickstart on redis and
// memcached.
const json& OurRun() {
  static const json run = [] {
    // ctest runs each test in its own process: every process makes its own files.
    DfbenchRunner dfb("compare-quickstart-" + std::to_string(getpid()));
    auto r = dfb.Run(
        Concat({"quickstart", "--id", "cmp", "--engines", "redis,memcached", "--output", "json"},
               kSmallRun));
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? json::parse(r.out) : json();
  }();
  return run;
}

// A results.json of our own `run-commands` (SET on redis), made once by running the real binary.
const json& OurCommands() {
  static const json commands = [] {
    DfbenchRunner dfb("compare-run-commands-" + std::to_string(getpid()));
    auto r = dfb.Run({"setup", "--id", "rc", "--engines", "redis"});
    EXPECT_EQ(r.code, 0) << r.err;
    r =
        dfb.Run(SplitArgs("run-commands --id rc --engines redis --command SET --key-maximum 1000 "
                          "--test-time 1 --warmup-time 0 --trials 2 --cooldown 0 --memtier-threads "
                          "1 --memtier-clients 2 --memtier-pipeline 2 --output json"));
    EXPECT_EQ(r.code, 0) << r.err;
    dfb.Run({"destroy", "--id", "rc"});
    return r.code == 0 ? json::parse(r.out) : json();
  }();
  return commands;
}

// The same file as the reference writes it: none of our additions.
json ReferenceShaped(json doc) {
  const std::string scenario = doc.value("scenario", "");
  doc.erase("context");
  if (scenario.empty()) doc.erase("setup_id");
  if (scenario == "commands") {
    for (const char* k : {"tool", "dfly_bench_ref"}) doc.erase(k);
    for (const char* k : {"key_pattern", "qps"}) doc["memtier"].erase(k);
    for (json& c : doc["commands"]) {
      for (const char* k : {"preload_template", "preload_items", "key_maximum", "mutates"}) {
        c.erase(k);
      }
    }
  }
  if (scenario == "replication") doc.erase("status");
  auto strip_engine = [](json& e) {
    for (const char* k :
         {"error", "tuning", "approximate", "server_ops", "warmup_ops", "preloads", "keyspace"}) {
      e.erase(k);
    }
    for (json& t : e["trials"]) {
      for (const char* k : {"ops", "errors", "duration_sec", "raw_file"}) t.erase(k);
    }
  };
  if (doc.contains("engines")) {
    for (json& e : doc["engines"]) strip_engine(e);
  }
  if (doc.contains("commands")) {
    for (json& c : doc["commands"]) {
      for (json& e : c["engines"]) strip_engine(e);
    }
  }
  return doc;
}

// ---- The three shapes, each with the way to make its throughput drop or its p99 rise ----

void ScaleStats(json* engine, const char* metric, double factor) {
  for (const char* k : {"median", "min", "max", "stddev"}) {
    (*engine)[metric][k] = (*engine)[metric][k].get<double>() * factor;
  }
  for (json& t : (*engine)["trials"]) t[metric] = t[metric].get<double>() * factor;
}

struct ShapeCase {
  const char* name;
  const char* fixture;      // the reference README example
  std::string group;        // how the table names the first engine or case
  const char* tput_metric;  // metric names in the regression line
  const char* p99_metric;
  std::function<json*(json*)> first;  // the first engine or case of a document
  std::function<void(json*, double)> scale_tput;
  std::function<void(json*, double)> scale_p99;
  // Candidate 10% below the baseline's median throughput, with trials overlapping it.
  std::function<void(json*)> drop_within_noise;
};

void ScaleSeries(json* c, const char* field, double factor) {
  for (json& s : (*c)["series"]) s[field] = s[field].get<double>() * factor;
}

const ShapeCase kRunShape{
    "run",
    "reference_run.json",
    "dragonfly",
    "throughput",
    "p99",
    [](json* d) { return &(*d)["engines"][0]; },
    [](json* e, double f) { ScaleStats(e, "throughput", f); },
    [](json* e, double f) { ScaleStats(e, "p99", f); },
    [](json* e) {
      (*e)["throughput"] = {{"median", 2646502 * 0.9}, {"min", 2300000}, {"max", 2650000}};
    }};

const ShapeCase kCommandsShape{"commands",
                               "reference_commands.json",
                               "SET dragonfly",
                               "throughput",
                               "p99",
                               [](json* d) { return &(*d)["commands"][0]["engines"][0]; },
                               kRunShape.scale_tput,
                               kRunShape.scale_p99,
                               kRunShape.drop_within_noise};

const ShapeCase kReplicationShape{"replication",
                                  "reference_replication.json",
                                  "qps=100000",
                                  "median_rps",
                                  "median_p99_us",
                                  [](json* d) { return &(*d)["cases"][0]; },
                                  [](json* c, double f) { ScaleSeries(c, "rps", f); },
                                  [](json* c, double f) { ScaleSeries(c, "p99_us", f); },
                                  [](json* c) {
                                    // Baseline rps 198500 and 199800: median 199150. 179235 is
                                    // exactly 10% below it.
                                    (*c)["series"] = {
                                        {{"t_sec", 1}, {"rps", 160000}, {"p99_us", 2100}},
                                        {{"t_sec", 2}, {"rps", 179235}, {"p99_us", 2050}},
                                        {{"t_sec", 3}, {"rps", 198500}, {"p99_us", 2075}}};
                                  }};

void PrintTo(const ShapeCase& s, std::ostream* os) {
  *os << s.name;
}

class CompareShape : public ::testing::TestWithParam<ShapeCase> {
 protected:
  CompareShape()
      : dfb_(std::string("compare-") + GetParam().name + "-" + std::to_string(getpid())) {}

  // The reference example and a candidate changed by `change`, written to files.
  std::pair<std::string, std::string> Files(const std::function<void(json*)>& change) {
    json base = ReadJson(FixturePath(std::string("results/") + GetParam().fixture));
    json cand = base;
    change(GetParam().first(&cand));
    return {Write(dfb_, "base.json", base), Write(dfb_, "cand.json", cand)};
  }

  CliResult Compare(const std::string& a, const std::string& b,
                    std::vector<std::string> extra = {}) {
    return dfb_.Run(Concat({"compare", a, b}, extra));
  }

  DfbenchRunner dfb_;
};

TEST_P(CompareShape, IdenticalFilesAreWithinTolerance) {
  auto [base, cand] = Files([](json*) {});
  auto r = Compare(base, cand);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(std::string("compare ") + GetParam().name + " results"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ok: no metric regressed beyond 5%"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("REGRESSION"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST_P(CompareShape, TenPercentThroughputDropIsARegression) {
  const ShapeCase& s = GetParam();
  auto [base, cand] = Files([&s](json* g) { s.scale_tput(g, 0.9); });
  auto r = Compare(base, cand);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(
      r.out.find("REGRESSION: 1 metric beyond 5%: " + s.group + " " + s.tput_metric + " -10.0%"),
      std::string::npos)
      << r.out;
  // Reversed, the same files show an improvement.
  r = Compare(cand, base);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("improved"), std::string::npos) << r.out;
  // A looser threshold accepts the drop.
  r = Compare(base, cand, {"--regression-pct", "12.5"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ok: no metric regressed beyond 12.5%"), std::string::npos) << r.out;
}

TEST_P(CompareShape, LatencyRiseBeyondTheThresholdIsARegression) {
  const ShapeCase& s = GetParam();
  auto [base, cand] = Files([&s](json* g) { s.scale_p99(g, 1.2); });
  auto r = Compare(base, cand);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(
      r.out.find("REGRESSION: 1 metric beyond 5%: " + s.group + " " + s.p99_metric + " +20.0%"),
      std::string::npos)
      << r.out;
  r = Compare(base, cand, {"--regression-pct", "25"});
  EXPECT_EQ(r.code, 0) << r.out;
}

TEST_P(CompareShape, DropWithinTheNoiseRegressesUnlessSignificanceIsRequired) {
  const ShapeCase& s = GetParam();
  auto [base, cand] = Files(s.drop_within_noise);
  auto r = Compare(base, cand);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("REGRESSION (within noise)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(s.group + " " + s.tput_metric + " -10.0%"), std::string::npos) << r.out;

  r = Compare(base, cand, {"--require-significance"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("within noise"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("REGRESSION"), std::string::npos) << r.out;

  // A drop outside the noise still fails under --require-significance.
  auto [base2, cand2] = Files([&s](json* g) { s.scale_tput(g, 0.9); });
  r = Compare(base2, cand2, {"--require-significance"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
}

TEST_P(CompareShape, InputErrorsExitTwoWithOneLine) {
  auto [base, cand] = Files([](json*) {});
  const std::string other_fixture =
      std::string(GetParam().name) == "run" ? "reference_replication.json" : "reference_run.json";
  auto r = Compare(base, FixturePath("results/" + other_fixture).string());
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("cannot compare"), std::string::npos) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_EQ(r.out, "");

  const std::string text = *core::ReadFile(base);
  const std::string truncated = Write(dfb_, "truncated.json", text.substr(0, text.size() * 2 / 3));
  r = Compare(base, truncated);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("truncated.json: malformed JSON"), std::string::npos) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  r = Compare(truncated, base);
  EXPECT_EQ(r.code, 2) << r.err;

  r = Compare(base, (dfb_.home() / "missing.json").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("missing.json: no such file"), std::string::npos) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;

  // Nothing in common: the first engine or case renamed.
  json renamed = ReadJson(base);
  json* g = GetParam().first(&renamed);
  (*g)[g->contains("run_name") ? "run_name" : "engine"] = "something-else";
  r = Compare(base, Write(dfb_, "renamed.json", renamed));
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("nothing to compare"), std::string::npos) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
}

TEST_P(CompareShape, JsonOutputIsOnePayloadWithPerGroupRegressions) {
  const ShapeCase& s = GetParam();
  auto [base, cand] = Files([&s](json* g) { s.scale_tput(g, 0.9); });
  auto r = Compare(base, cand, {"--format", "json"});
  EXPECT_EQ(r.code, 1) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["shape"], s.name);
  EXPECT_EQ(j["regression_pct"], 5);
  EXPECT_EQ(j["regressed"], true);
  const char* groups = std::string(s.name) == "run"        ? "engines"
                       : std::string(s.name) == "commands" ? "commands"
                                                           : "cases";
  ASSERT_EQ(j[groups].size(), 1u);
  // jq '.<groups>[] | select(.regressions != [])'
  EXPECT_EQ(j[groups][0]["regressions"], json::array({s.tput_metric}));
  ASSERT_EQ(j["regressions"].size(), 1u);
  EXPECT_EQ(j["regressions"][0]["metric"], s.tput_metric);
  EXPECT_EQ(j["regressions"][0]["delta_pct"], -10);
  EXPECT_FALSE(j["rows"].empty());
  // stdout stays a clean payload; the regression is named once on stderr.
  EXPECT_NE(r.err.find("regression beyond 5%: " + s.group + " " + s.tput_metric), std::string::npos)
      << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Shapes, CompareShape,
                         ::testing::Values(kRunShape, kCommandsShape, kReplicationShape),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- Sweeps: the highest rate within the objectives, and latency at matching rates ----

class CompareSweep : public ::testing::Test {
 protected:
  CompareSweep() : dfb_("compare-sweep-" + std::to_string(getpid())) {}

  // The fixture and a candidate changed by `change` (on memcached, the engine that found a
  // rate), written to files.
  std::pair<std::string, std::string> Files(const std::function<void(json*)>& change) {
    json base = ReadJson(FixturePath("results/sweep.json"));
    json cand = base;
    change(&cand["engines"][1]);
    return {Write(dfb_, "base.json", base), Write(dfb_, "cand.json", cand)};
  }

  CliResult Compare(const std::string& a, const std::string& b,
                    std::vector<std::string> extra = {}) {
    return dfb_.Run(Concat({"compare", a, b}, extra));
  }

  DfbenchRunner dfb_;
};

void ScaleFoundRate(json* engine, double f) {
  (*engine)["found_rate"] = (*engine)["found_rate"].get<double>() * f;
  json& c = (*engine)["confirmation"];
  for (const char* k : {"min_rate", "max_rate"}) c[k] = c[k].get<double>() * f;
  for (json& r : c["round_rates"]) r = r.get<double>() * f;
}

TEST_F(CompareSweep, IdenticalFilesAreWithinTolerance) {
  auto [base, cand] = Files([](json*) {});
  auto r = Compare(base, cand);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("compare sweep results"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max rate in SLO (ops/s)"), std::string::npos) << r.out;
  // memcached kept its objectives at two ladder rungs: p99 and p99.9 compared at each.
  EXPECT_NE(r.out.find("p99 at 4,148 ops/s (ms)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("p99.9 at 8,296 ops/s (ms)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ok: no metric regressed beyond 5%"), std::string::npos) << r.out;
}

TEST_F(CompareSweep, ALowerFoundRateIsARegressionAndAHigherOneAnImprovement) {
  auto [base, cand] = Files([](json* e) { ScaleFoundRate(e, 0.9); });
  auto r = Compare(base, cand);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("REGRESSION: 1 metric beyond 5%: memcached max_rate_in_slo -10.0%"),
            std::string::npos)
      << r.out;
  r = Compare(cand, base);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("improved"), std::string::npos) << r.out;
  // An engine that found no rate where the baseline did is missing, a regression.
  auto [base2, none] = Files([](json* e) { (*e)["found_rate"] = nullptr; });
  r = Compare(base2, none);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("MISSING in candidate"), std::string::npos) << r.out;
}

TEST_F(CompareSweep, HigherLatencyAtTheSameRatesIsARegression) {
  auto [base, cand] = Files([](json* e) {
    for (json& s : (*e)["steps"])
      s["latency_ms"]["p99"] = s["latency_ms"]["p99"].get<double>() * 1.2;
  });
  auto r = Compare(base, cand, {"--format", "json"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["shape"], "sweep");
  ASSERT_EQ(j["engines"].size(), 2u);
  EXPECT_EQ(j["engines"][1]["regressions"], json::array({"p99@4148", "p99@8296"}));
  for (const json& reg : j["regressions"]) EXPECT_EQ(reg["delta_pct"], 20) << reg;
  // A sweep and a run do not compare.
  r = Compare(base, FixturePath("results/reference_run.json").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot compare sweep with run"), std::string::npos) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
}

TEST_F(CompareSweep, RatesOutsideTheCandidatesCurveAreNotCompared) {
  // The candidate's ladder starts higher (its capacity measured 1.5 times the baseline's): the
  // baseline's lowest rung lies below the candidate's curve, its second inside it.
  auto [base, cand] = Files([](json* e) {
    for (json& s : (*e)["steps"]) {
      if (s["target_rate"].is_number()) s["target_rate"] = s["target_rate"].get<double>() * 1.5;
    }
  });
  auto r = Compare(base, cand);
  EXPECT_EQ(r.out.find("at 4,148 ops/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("p99 at 8,296 ops/s (ms)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("MISSING"), std::string::npos) << r.out;
}

// ---- Ours against the reference's, both ways ----

// `ours` and the same data as the reference writes it compare equal, both ways.
void ExpectSameBothWays(const DfbenchRunner& dfb, const json& ours, const std::string& tag) {
  const std::string a = Write(dfb, tag + "-ours.json", ours);
  const std::string b = Write(dfb, tag + "-reference.json", ReferenceShaped(ours));
  for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    auto r = dfb.Run({"compare", x, y, "--format", "json"});
    EXPECT_EQ(r.code, 0) << tag << ": " << r.out << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["regressed"], false) << tag;
    EXPECT_EQ(j["only_in_baseline"], json::array()) << tag;
    for (const json& row : j["rows"]) EXPECT_EQ(row["delta_pct"], 0) << tag << row.dump();
  }
}

TEST(CompareAcrossImplementations, OurFilesCompareWithReferenceShapedOnes) {
  DfbenchRunner dfb("compare-across-" + std::to_string(getpid()));
  ASSERT_TRUE(OurRun().is_object());
  ASSERT_TRUE(OurCommands().is_object());
  ExpectSameBothWays(dfb, OurRun(), "run");
  ExpectSameBothWays(dfb, OurCommands(), "commands");
  ExpectSameBothWays(dfb, ReadJson(FixturePath("results/replication.json")), "replication");
}

TEST(CompareAcrossImplementations, ReferenceExamplesCompareWithOurRuns) {
  DfbenchRunner dfb("compare-reference-" + std::to_string(getpid()));
  ASSERT_TRUE(OurRun().is_object());
  // The README's run, its engine renamed so that it shares one with ours.
  json reference = ReadJson(FixturePath("results/reference_run.json"));
  reference["engines"][0]["engine"] = "redis";
  const std::string ref = Write(dfb, "reference-run.json", reference);
  const std::string ours = Write(dfb, "our-run.json", OurRun());
  for (const auto& [a, b, only_key] :
       {std::tuple{ref, ours, "only_in_candidate"}, std::tuple{ours, ref, "only_in_baseline"}}) {
    auto r = dfb.Run({"compare", a, b, "--format", "json"});
    EXPECT_TRUE(r.code == 0 || r.code == 1) << r.err;
    json j = json::parse(r.out);
    ASSERT_EQ(j["engines"].size(), 1u);
    EXPECT_EQ(j["engines"][0]["engine"], "redis");
    EXPECT_EQ(j[only_key], json::array({"memcached"}));
  }

  // The README's replication example against our replication file: one case in common.
  const std::string ref_rep = FixturePath("results/reference_replication.json").string();
  const std::string our_rep = FixturePath("results/replication.json").string();
  auto r = dfb.Run({"compare", ref_rep, our_rep});
  EXPECT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_NE(r.out.find("only in candidate: maxload"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("qps=100000  median_rps"), std::string::npos) << r.out;
  r = dfb.Run({"compare", our_rep, ref_rep});
  EXPECT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_NE(r.out.find("only in baseline: maxload"), std::string::npos) << r.out;

  // The README's per-command example against the same data with our additions.
  json commands = ReadJson(FixturePath("results/reference_commands.json"));
  json with_ours = commands;
  with_ours["context"] = OurRun()["context"];
  with_ours["tool"] = "memtier";
  for (json& t : with_ours["commands"][0]["engines"][0]["trials"]) {
    t["ops"] = 1000;
    t["errors"] = 0;
  }
  const std::string c1 = FixturePath("results/reference_commands.json").string();
  const std::string c2 = Write(dfb, "commands-with-ours.json", with_ours);
  EXPECT_EQ(dfb.Run({"compare", c1, c2}).code, 0);
  EXPECT_EQ(dfb.Run({"compare", c2, c1}).code, 0);
}

TEST(CompareCli, ListsEnginesInOneFileOnlyAndHasHelp) {
  DfbenchRunner dfb("compare-cli-" + std::to_string(getpid()));
  ASSERT_TRUE(OurRun().is_object());
  json fewer = OurRun();
  fewer["engines"].erase(1);  // memcached
  const std::string all = Write(dfb, "all.json", OurRun());
  const std::string one = Write(dfb, "one.json", fewer);
  auto r = dfb.Run({"compare", all, one});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("only in baseline: memcached"), std::string::npos) << r.out;
  r = dfb.Run({"compare", one, all});
  EXPECT_NE(r.out.find("only in candidate: memcached"), std::string::npos) << r.out;

  // A run directory stands for its results.json.
  const auto dir = dfb.home() / "run-dir";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(all, dir / "results.json");
  EXPECT_EQ(dfb.Run({"compare", dir.string(), all}).code, 0);

  r = dfb.Run({"compare", "--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("case $? in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--require-significance"), std::string::npos);
  EXPECT_EQ(dfb.Run({"compare", all}).code, 2);
  EXPECT_EQ(dfb.Run({"compare", all, all, "--format", "xml"}).code, 2);
  EXPECT_EQ(dfb.Run({"compare", all, all, "--regression-pct", "-1"}).code, 2);
}

}  // namespace
}  // namespace dfbench::testing
