#include "drivers/dfly_bench_driver.h"

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "drivers/dfly_bench_replication.h"
#include "drivers/driver_test_workloads.h"
#include "hosts/local_host.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"

namespace dfbench::drivers {
namespace {

// What the real dfly_bench (v1.40.0-87-gf8eca6d0b) left of one pass, by fixture stem: its
// --json_out_file report (<stem>.json) and its stdout (<stem>.txt); see the fixtures' README.
ToolOutput DflyOutput(const std::string& stem) {
  const auto dir = testing::FixturePath("dfly_bench");
  ToolOutput out{.report_path = (dir / (stem + ".json")).string(),
                 .stdout_path = (dir / (stem + ".txt")).string()};
  auto report = core::ReadFile(out.report_path);
  auto printed = core::ReadFile(out.stdout_path);
  EXPECT_TRUE(report && printed) << stem;
  out.report = report.value_or("");
  out.stdout_text = printed.value_or("");
  return out;
}

const core::Pass kOneSecond = core::Pass::Time(std::chrono::seconds(1));

using testing::JoinArgs;
using testing::ScopedTempDir;

TEST(DflyBenchDriver, MeasuredPassCommandLine) {
  LoadedPass w = TimedCommand("GET __key__", core::KeyPattern::kZipf, 15);
  w.load.distinct_client_seed = false;
  w.pass.rate_per_connection = 1000;
  auto args = DflyBenchDriver::BuildArgs("/usr/local/bin/dfly_bench",
                                         {"10.0.0.2", 6379, core::Protocol::kRedis}, w.load, w.pass,
                                         "/work/d.json");
  ASSERT_TRUE(args);
  const auto want = testing::SplitArgs(
      "/usr/local/bin/dfly_bench --h=10.0.0.2 --p=6379 --proactor_threads=32 --c=5 --pipeline=20 "
      "--d=256 --key_minimum=1 --key_maximum=1000000 --key_dist=Z --qps=1000 --test_time=15 "
      "'--command=GET __key__' --json_out_file=/work/d.json");
  EXPECT_EQ(*args, want);
}

TEST(DflyBenchDriver, RefusesADatabaseOtherThanZero) {
  const Target db{.address = "h", .port = 1, .db = 2};
  auto args = DflyBenchDriver::BuildArgs("dfly_bench", db, core::kRunLoad, kOneSecond, "r");
  ASSERT_FALSE(args);
  EXPECT_EQ(args.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(args.error().message.find("database"), std::string::npos);
}

TEST(DflyBenchDriver, RefusesACluster) {
  const Target cluster{.address = "h", .port = 1, .cluster = true};
  auto args = DflyBenchDriver::BuildArgs("dfly_bench", cluster, core::kRunLoad, kOneSecond, "r");
  ASSERT_FALSE(args);
  EXPECT_EQ(args.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(args.error().message.find("cluster"), std::string::npos);
}

TEST(DflyBenchDriver, QpsIsAlwaysExplicitAndKeyPatternsMap) {
  core::Load load = core::kRunLoad;
  load.command = "SET __key__ __data__";
  using enum core::KeyPattern;
  for (auto [pattern, dist] :
       {std::pair{kRandom, "--key_dist=U"}, std::pair{kSequential, "--key_dist=S"},
        std::pair{kGaussian, "--key_dist=N"}, std::pair{kZipf, "--key_dist=Z"}}) {
    load.key_pattern = pattern;
    auto args = DflyBenchDriver::BuildArgs("dfly_bench", {"h", 1, core::Protocol::kRedis}, load,
                                           kOneSecond, "r");
    ASSERT_TRUE(args);
    const std::string line = JoinArgs(*args);
    EXPECT_NE(line.find(dist), std::string::npos) << line;
    // dfly_bench's own default is 20 requests per second: never leave it implicit.
    EXPECT_NE(line.find("--qps=0"), std::string::npos) << line;
  }
  load.key_pattern = kParallel;
  auto p = DflyBenchDriver::BuildArgs("dfly_bench", {"h", 1, core::Protocol::kRedis}, load,
                                      kOneSecond, "r");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().kind, core::ErrorKind::kUsage);
}

TEST(DflyBenchDriver, FillUsesOneSequentialConnectionPerThread) {
  LoadedPass w = Fill("SET __key__ __data__", 1000, 32, 5);
  w.pass.rate_per_connection = 500;
  auto args = DflyBenchDriver::BuildArgs("dfly_bench", {"h", 1, core::Protocol::kRedis}, w.load,
                                         w.pass, "r");
  ASSERT_TRUE(args);
  const std::string line = JoinArgs(*args);
  // 25 threads (dividing 1000) x 1 connection x 40 requests, sequential, unthrottled.
  EXPECT_NE(line.find("--proactor_threads=25 --c=1"), std::string::npos) << line;
  EXPECT_NE(line.find("--key_dist=S --qps=0 --n=40"), std::string::npos) << line;
}

TEST(DflyBenchDriver, ReadsATimeBoxedCommandPass) {
  // run-commands-dfly's measured GET pass: one "GET" section after Totals.
  auto t = DflyBenchDriver::ParseReport(DflyOutput("get_trial"), kOneSecond);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 79170u);
  EXPECT_DOUBLE_EQ(t->throughput, 79170);  // Count over the test time
  EXPECT_DOUBLE_EQ(t->duration_sec, 1);
  EXPECT_DOUBLE_EQ(t->p50, 0.092342);
  EXPECT_DOUBLE_EQ(t->p99, 0.622892);
  EXPECT_DOUBLE_EQ(t->p999, 2.580645);
  EXPECT_DOUBLE_EQ(t->avg_latency, 0.118251);
  EXPECT_EQ(t->errors, 0u);
}

TEST(DflyBenchDriver, ARequestCountedPassTakesItsDurationFromStdout) {
  // The preload's fill: "Total duration" 13 (ms, truncated), stdout "Total time: 13.314419ms".
  auto t = DflyBenchDriver::ParseReport(DflyOutput("set_fill"), core::Pass::Fill());
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 1000u);
  EXPECT_DOUBLE_EQ(t->duration_sec, 0.013314419);
  EXPECT_DOUBLE_EQ(t->throughput, 1000 / 0.013314419);
  EXPECT_DOUBLE_EQ(t->p99, 0.170769);
}

// Its "Total time" is an absl duration: "826us" (seen on short passes), "13.314419ms", "1m2.5s".
TEST(DflyBenchDriver, ReadsEveryDurationUnitOfItsStdout) {
  for (auto [printed, seconds] :
       {std::pair{"826us", 826e-6}, std::pair{"13.314419ms", 0.013314419}, std::pair{"1.5s", 1.5},
        std::pair{"1m2.5s", 62.5}, std::pair{"1h0m1s", 3601.0}}) {
    ToolOutput out = DflyOutput("set_fill");
    out.stdout_text = std::string("Total time: ") + printed +
                      ". Overall number of requests: 1000, QPS: 1, P99 lat: 1us\n";
    auto t = DflyBenchDriver::ParseReport(out, core::Pass::Fill());
    ASSERT_TRUE(t) << printed << ": " << t.error().message;
    EXPECT_DOUBLE_EQ(t->duration_sec, seconds) << printed;
  }
  ToolOutput out = DflyOutput("set_fill");
  out.stdout_text = "Total time: 5 fortnights. Overall number of requests: 1000, QPS: 1\n";
  EXPECT_FALSE(DflyBenchDriver::ParseReport(out, core::Pass::Fill()));
}

TEST(DflyBenchDriver, ReadsTheSetGetForm) {
  auto t = DflyBenchDriver::ParseReport(DflyOutput("set_get_ratio"), core::Pass::Requests(1000));
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 2000u);
  EXPECT_DOUBLE_EQ(t->duration_sec, 0.018782129);
  // The "Sets" and "Gets" sections' averages weighted by their counts.
  EXPECT_NEAR(t->avg_latency, (709 * 0.089468 + 1291 * 0.08688) / 2000, 1e-9);
  EXPECT_DOUBLE_EQ(t->p99, 0.158182);
}

TEST(DflyBenchDriver, ErrorRepliesComeFromStdout) {
  // LPOP on string keys: every reply is WRONGTYPE. The report counts them as requests and has
  // no error count; stdout says "Got 130035 error responses!".
  auto t = DflyBenchDriver::ParseReport(DflyOutput("lpop_wrongtype"), kOneSecond);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->errors, 130035u);
  EXPECT_EQ(t->ops, 0u);
  EXPECT_DOUBLE_EQ(t->throughput, 0);
}

// A change of the report's JSON document by `edit`.
std::function<void(ToolOutput*)> EditReport(std::function<void(nlohmann::json&)> edit) {
  return [edit = std::move(edit)](ToolOutput* o) {
    auto doc = nlohmann::json::parse(o->report);
    edit(doc);
    o->report = doc.dump();
  };
}

// A change of dfly_bench's stdout to `text`.
std::function<void(ToolOutput*)> StdoutReplacedBy(std::string text) {
  return [text = std::move(text)](ToolOutput* o) { o->stdout_text = text; };
}

// A changed format is one line naming the file and what was expected, never zeros.
TEST(DflyBenchDriver, AnUnknownFormatIsOneLineNamingTheFile) {
  struct Case {
    const char* what;
    std::function<void(ToolOutput*)> change;
    bool in_stdout;
    const char* expected;
  } cases[] = {
      {"not JSON", [](ToolOutput* o) { o->report = "Count: 10"; }, false, "a JSON object"},
      {"renamed results section", EditReport([](nlohmann::json& doc) {
         doc["RESULTS"] = doc["ALL STATS"];
         doc.erase("ALL STATS");
       }),
       false, "\"ALL STATS\""},
      {"no percentiles", EditReport([](nlohmann::json& doc) {
         doc["ALL STATS"]["Totals"].erase("Percentile Latencies");
       }),
       false, "Totals.\"Percentile Latencies\""},
      {"p99.9 spelled otherwise", EditReport([](nlohmann::json& doc) {
         auto& pl = doc["ALL STATS"]["Totals"]["Percentile Latencies"];
         pl["p99.900"] = pl["p99.90"];
         pl.erase("p99.90");
       }),
       false, "\"p99.90\""},
      {"no per-operation section",
       EditReport([](nlohmann::json& doc) { doc["ALL STATS"].erase("GET"); }), false,
       "a section per operation"},
      {"no summary on stdout", StdoutReplacedBy("Connecting\n"), true,
       "Overall number of requests"},
      {"summary reworded",
       StdoutReplacedBy("Total time: 1s. Number of requests: 79170, QPS: 79108\n"), true,
       "Overall number of requests"},
      {"counts disagree",
       StdoutReplacedBy("Total time: 1.0s. Overall number of requests: 79000, QPS: 79000\n"), true,
       "79000 requests should be the report's Totals.Count, 79170"},
  };
  for (const auto& c : cases) {
    ToolOutput out = DflyOutput("get_trial");
    c.change(&out);
    auto t = DflyBenchDriver::ParseReport(out, kOneSecond);
    ASSERT_FALSE(t) << c.what;
    EXPECT_EQ(t.error().kind, core::ErrorKind::kUsage) << c.what;
    const std::string& m = t.error().message;
    EXPECT_EQ(m.rfind((c.in_stdout ? out.stdout_path : out.report_path) + ": ", 0), 0u) << m;
    EXPECT_NE(m.find(c.expected), std::string::npos) << c.what << ": " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(DflyBenchDriver, MissingBinaryIsOneLineSayingHowToProvideIt) {
  const ScopedTempDir dir("dfly-missing");
  hosts::LocalHost host(dir.path());
  DflyBenchDriver driver;  // not on PATH here
  if (host.Which("dfly_bench")) GTEST_SKIP() << "dfly_bench is installed on this machine";
  auto st = driver.Prepare(host);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(st.error().message.find("--dfly-bench-binary PATH"), std::string::npos);
}

TEST(DflyBenchDriver, PrepareNamesTheBinaryItFound) {
  const ScopedTempDir dir("dfly-found");
  testing::WriteExecutable(dir / "dfly_bench", "#!/bin/sh\nexit 0\n");
  hosts::LocalHost host(dir / "work");
  DflyBenchDriver driver((dir / "dfly_bench").string());
  EXPECT_EQ(driver.resolved_binary(), "");
  ASSERT_TRUE(driver.Prepare(host));
  EXPECT_EQ(driver.resolved_binary(), (dir / "dfly_bench").string());
}

// A stand-in dfly_bench in `dir` that prints the real one's outputs of the pass `stem` (and
// counts its runs in dir/runs): the driver's part is to keep and read them.
void WriteFakeDflyBench(const std::filesystem::path& dir, const std::string& stem) {
  const ToolOutput real = DflyOutput(stem);
  testing::WriteExecutable(dir / "dfly_bench",
                           "#!/bin/sh\n"
                           "echo run >> '" +
                               (dir / "runs").string() +
                               "'\n"
                               "for a in \"$@\"; do case \"$a\" in --json_out_file=*) cp '" +
                               real.report_path +
                               "' \"${a#--json_out_file=}\";; esac; done\n"
                               "cat '" +
                               real.stdout_path + "'\n");
}

// `load` run by the driver with the stand-in dfly_bench of pass `stem` in `dir`, against a
// server nothing needs to listen on; its report kept as dir/out/<report>.
core::Result<results::TrialResult> RunFakeDflyBench(const ScopedTempDir& dir,
                                                    const std::string& stem, const core::Load& load,
                                                    const std::string& report) {
  WriteFakeDflyBench(dir.path(), stem);
  hosts::LocalHost host(dir / "work");
  DflyBenchDriver driver((dir / "dfly_bench").string());
  return driver.Run(host, {"127.0.0.1", 6379, core::Protocol::kRedis}, load, kOneSecond, {},
                    dir / "out" / report);
}

TEST(DflyBenchDriver, RunKeepsTheReportAndStdout) {
  const ScopedTempDir dir("dfly-fake");
  core::Load load = core::kRunLoad;
  load.command = "GET __key__";
  load.key_minimum = 1;
  load.key_maximum = 100;
  auto t = RunFakeDflyBench(dir, "get_trial", load, "d-GET-t1.json");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 79170u);
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "d-GET-t1.json"));
  EXPECT_NE(core::ReadFile(dir / "out" / "d-GET-t1.txt")->find("Total time"), std::string::npos);
}

// A pass whose every reply was an error is measured as such, once: not an empty pass to retry.
TEST(DflyBenchDriver, APassOfOnlyErrorRepliesIsNotRetried) {
  const ScopedTempDir dir("dfly-errors");
  core::Load load = core::kRunLoad;
  load.command = "LPOP __key__";
  auto t = RunFakeDflyBench(dir, "lpop_wrongtype", load, "d-LPOP-t1.json");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->errors, 130035u);
  EXPECT_EQ(t->ops, 0u);
  EXPECT_EQ(*core::ReadFile(dir / "runs"), "run\n");
}

TEST(DflyBenchArgs, TheReferencesPreloadAndLoadFlags) {
  DflyBenchShape shape;
  shape.binary = "dfly_bench";
  shape.target.address = "10.0.0.2";
  shape.target.port = 6379;
  shape.key_maximum = 500000;
  shape.value_size = 4096;
  shape.report_path = "/w/r.json";
  EXPECT_EQ(DflyBenchPreloadArgs(shape, std::chrono::seconds(30)),
            (std::vector<std::string>{"dfly_bench", "--h=10.0.0.2", "--p=6379",
                                      "--proactor_threads=4", "-c=15", "--pipeline=10", "--qps=0",
                                      "--test_time=30", "--ratio=1:0", "-d=4096",
                                      "--key_maximum=500000", "--json_out_file=/w/r.json"}));
  EXPECT_EQ(DflyBenchLoadArgs(shape, 100000, core::kSetsOnly, std::chrono::seconds(60)),
            (std::vector<std::string>{"dfly_bench", "--h=10.0.0.2", "--p=6379",
                                      "--proactor_threads=1", "-c=2", "--pipeline=5",
                                      "--qps=100000", "--test_time=60", "--ratio=1:0", "-d=4096",
                                      "--key_maximum=500000", "--json_out_file=/w/r.json"}));
  // maxload: --qps=0 said explicitly, as dfly_bench's default is 20.
  const auto maxload = DflyBenchLoadArgs(shape, 0, {.set = 1, .get = 1}, std::chrono::seconds(5));
  EXPECT_EQ(maxload[6], "--qps=0");
}

}  // namespace
}  // namespace dfbench::drivers
