#include "drivers/dfly_bench_driver.h"

#include <gtest/gtest.h>

#include "core/files.h"
#include "drivers/driver_test_workloads.h"
#include "hosts/local_host.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"

namespace dfbench::drivers {
namespace {

// A --json_out_file report as dfly_bench (v1.40+) writes it for --command (command_report.json):
// "Totals" first, then one section named by the UPPER-CASE first word of the command; latencies
// in ms; no Hits/Misses, KB/sec, Accumulated Latency or compressed histogram. The SET:GET form
// (ratio_report.json) has "Sets" and "Gets" sections after "Totals".
std::string DflyReport(const std::string& name) {
  auto text = core::ReadFile(testing::FixturePath("dfly_bench/" + name));
  EXPECT_TRUE(text) << name;
  return text.value_or("");
}

using testing::JoinArgs;
using testing::ScopedTempDir;

TEST(DflyBenchDriver, MeasuredPassCommandLine) {
  Workload w = TimedCommand("GET __key__", KeyPattern::kZipf, 15);
  w.distinct_client_seed = false;
  w.rate_per_connection = 1000;
  auto args = DflyBenchDriver::BuildArgs("/usr/local/bin/dfly_bench", {"10.0.0.2", 6379, "redis"},
                                         w, "/work/d.json");
  ASSERT_TRUE(args);
  const auto want = testing::SplitArgs(
      "/usr/local/bin/dfly_bench --h=10.0.0.2 --p=6379 --proactor_threads=32 --c=5 --pipeline=20 "
      "--d=256 --key_minimum=1 --key_maximum=1000000 --key_dist=Z --qps=1000 --test_time=15 "
      "'--command=GET __key__' --json_out_file=/work/d.json");
  EXPECT_EQ(*args, want);
}

TEST(DflyBenchDriver, QpsIsAlwaysExplicitAndKeyPatternsMap) {
  Workload w{.command = "SET __key__ __data__",
             .length = Workload::Length::kTestTime,
             .test_time = std::chrono::seconds(1)};
  for (auto [pattern, dist] : {std::pair{KeyPattern::kRandom, "--key_dist=U"},
                               std::pair{KeyPattern::kSequential, "--key_dist=S"},
                               std::pair{KeyPattern::kGaussian, "--key_dist=N"},
                               std::pair{KeyPattern::kZipf, "--key_dist=Z"}}) {
    w.key_pattern = pattern;
    auto args = DflyBenchDriver::BuildArgs("dfly_bench", {"h", 1, "redis"}, w, "r");
    ASSERT_TRUE(args);
    const std::string line = JoinArgs(*args);
    EXPECT_NE(line.find(dist), std::string::npos) << line;
    // dfly_bench's own default is 20 requests per second: never leave it implicit.
    EXPECT_NE(line.find("--qps=0"), std::string::npos) << line;
  }
  w.key_pattern = KeyPattern::kParallel;
  auto p = DflyBenchDriver::BuildArgs("dfly_bench", {"h", 1, "redis"}, w, "r");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().kind, core::ErrorKind::kUsage);
}

TEST(DflyBenchDriver, FillUsesOneSequentialConnectionPerThread) {
  Workload w = Fill("SET __key__ __data__", 1000, 32, 5);
  w.rate_per_connection = 500;
  auto args = DflyBenchDriver::BuildArgs("dfly_bench", {"h", 1, "redis"}, w, "r");
  ASSERT_TRUE(args);
  const std::string line = JoinArgs(*args);
  // 25 threads (dividing 1000) x 1 connection x 40 requests, sequential, unthrottled.
  EXPECT_NE(line.find("--proactor_threads=25 --c=1"), std::string::npos) << line;
  EXPECT_NE(line.find("--key_dist=S --qps=0 --n=40"), std::string::npos) << line;
}

TEST(DflyBenchDriver, ParsesItsCommandReport) {
  Workload w{.length = Workload::Length::kTestTime, .test_time = std::chrono::seconds(15)};
  auto t = DflyBenchDriver::ParseReport(DflyReport("command_report.json"), w);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 4500000u);
  EXPECT_DOUBLE_EQ(t->throughput, 300000);  // Count over the test time
  EXPECT_DOUBLE_EQ(t->p50, 0.455);
  EXPECT_DOUBLE_EQ(t->p99, 1.631);
  EXPECT_DOUBLE_EQ(t->p999, 3.903);
  EXPECT_DOUBLE_EQ(t->avg_latency, 0.512);
  EXPECT_EQ(t->errors, 0u);
}

TEST(DflyBenchDriver, ParsesItsSetGetReport) {
  auto t = DflyBenchDriver::ParseReport(DflyReport("ratio_report.json"),
                                        Workload{.requests_per_client = 3000});
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 3000u);
  EXPECT_DOUBLE_EQ(t->throughput, 1500);  // by requests: Count over its Total duration
  EXPECT_DOUBLE_EQ(t->avg_latency, (1000 * 0.4 + 2000 * 0.25) / 3000);
  EXPECT_DOUBLE_EQ(t->p99, 0.9);
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

TEST(DflyBenchDriver, RunKeepsTheReportAndStdout) {
  const ScopedTempDir dir("dfly-fake");
  const auto report = dir / "report.json";
  ASSERT_TRUE(core::WriteFileAtomic(report, DflyReport("command_report.json")));
  testing::WriteExecutable(dir / "dfly_bench",
                           "#!/bin/sh\n"
                           "for a in \"$@\"; do case \"$a\" in --json_out_file=*) cp '" +
                               report.string() +
                               "' \"${a#--json_out_file=}\";; esac; done\n"
                               "echo 'Total time: 15.01s. Overall number of requests: 4500000'\n");
  hosts::LocalHost host(dir / "work");
  DflyBenchDriver driver((dir / "dfly_bench").string());
  Workload w{.command = "GET __key__",
             .key_minimum = 1,
             .key_maximum = 100,
             .length = Workload::Length::kTestTime,
             .test_time = std::chrono::seconds(15)};
  auto t = driver.Run(host, {"127.0.0.1", 6379, "redis"}, w, {}, dir / "out" / "d-GET-t1.json");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 4500000u);
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "d-GET-t1.json"));
  EXPECT_NE(core::ReadFile(dir / "out" / "d-GET-t1.txt")->find("Total time"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::drivers
