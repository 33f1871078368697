#include "drivers/dfly_bench_driver.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "core/files.h"
#include "hosts/local_host.h"

namespace dfbench::drivers {
namespace {

// A --json_out_file report as dfly_bench (v1.40+) writes it for --command: "Totals" first, then
// one section named by the UPPER-CASE first word of the command; latencies in ms; no
// Hits/Misses, KB/sec, Accumulated Latency or compressed histogram.
constexpr const char* kDflyCommandReport = R"({
  "configuration": {"server": "127.0.0.1", "port": 6379, "clients": 5, "threads": 32,
                    "pipeline": 20, "ratio": "1:10"},
  "ALL STATS": {
    "Runtime": {"Total duration": 15013},
    "Totals": {"Count": 4500000, "Ops/sec": 299740.2, "Average Latency": 0.512,
               "Min Latency": 0.031, "Max Latency": 9.871,
               "Percentile Latencies": {"p50.00": 0.455, "p99.00": 1.631, "p99.90": 3.903},
               "Time-Serie": {"0": {"Count": 300000, "Ops/sec": 300000, "Average Latency": 0.5,
                                    "Min Latency": 0.04, "Max Latency": 3.1, "p50.00": 0.45,
                                    "p99.00": 1.6, "p99.90": 3.8}}},
    "GET": {"Count": 4500000, "Ops/sec": 299740.2, "Average Latency": 0.512,
            "Min Latency": 0.031, "Max Latency": 9.871,
            "Percentile Latencies": {"p50.00": 0.455, "p99.00": 1.631, "p99.90": 3.903},
            "Time-Serie": {}}
  }
})";

// The SET:GET form: "Sets" and "Gets" sections after "Totals".
constexpr const char* kDflyRatioReport = R"({
  "configuration": {"server": "127.0.0.1", "port": 6379, "clients": 2, "threads": 1,
                    "pipeline": 5, "ratio": "1:1"},
  "ALL STATS": {
    "Runtime": {"Total duration": 2000},
    "Totals": {"Count": 3000, "Ops/sec": 1500, "Average Latency": 0.0,
               "Min Latency": 0.1, "Max Latency": 2.0,
               "Percentile Latencies": {"p50.00": 0.3, "p99.00": 0.9, "p99.90": 1.5}},
    "Sets": {"Count": 1000, "Ops/sec": 500, "Average Latency": 0.4, "Min Latency": 0.1,
             "Max Latency": 2.0, "Percentile Latencies": {"p50.00": 0.35, "p99.00": 1.0,
                                                          "p99.90": 1.5}},
    "Gets": {"Count": 2000, "Ops/sec": 1000, "Average Latency": 0.25, "Min Latency": 0.1,
             "Max Latency": 1.0, "Percentile Latencies": {"p50.00": 0.25, "p99.00": 0.8,
                                                          "p99.90": 0.9}}
  }
})";

std::string Join(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + a;
  return out;
}

TEST(DflyBenchDriver, MeasuredPassCommandLine) {
  Workload w{.threads = 32,
             .clients = 5,
             .data_size = 256,
             .pipeline = 20,
             .command = "GET __key__",
             .key_pattern = KeyPattern::kZipf,
             .key_minimum = 1,
             .key_maximum = 1000000,
             .length = Workload::Length::kTestTime,
             .test_time = std::chrono::seconds(15),
             .rate_per_connection = 1000};
  auto args = DflyBenchDriver::BuildArgs("/usr/local/bin/dfly_bench", {"10.0.0.2", 6379, "redis"},
                                         w, "/work/d.json");
  ASSERT_TRUE(args);
  EXPECT_EQ(*args, (std::vector<std::string>{
                       "/usr/local/bin/dfly_bench", "--h=10.0.0.2", "--p=6379",
                       "--proactor_threads=32", "--c=5", "--pipeline=20", "--d=256",
                       "--key_minimum=1", "--key_maximum=1000000", "--key_dist=Z", "--qps=1000",
                       "--test_time=15", "--command=GET __key__", "--json_out_file=/work/d.json"}));
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
    const std::string line = Join(*args);
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
  Workload w{.threads = 32,
             .clients = 5,
             .pipeline = 20,
             .command = "SET __key__ __data__",
             .key_minimum = 1,
             .key_maximum = 1000,
             .length = Workload::Length::kFill,
             .rate_per_connection = 500};
  auto args = DflyBenchDriver::BuildArgs("dfly_bench", {"h", 1, "redis"}, w, "r");
  ASSERT_TRUE(args);
  const std::string line = Join(*args);
  // 25 threads (dividing 1000) x 1 connection x 40 requests, sequential, unthrottled.
  EXPECT_NE(line.find("--proactor_threads=25 --c=1"), std::string::npos) << line;
  EXPECT_NE(line.find("--key_dist=S --qps=0 --n=40"), std::string::npos) << line;
}

TEST(DflyBenchDriver, ParsesItsCommandReport) {
  Workload w{.length = Workload::Length::kTestTime, .test_time = std::chrono::seconds(15)};
  auto t = DflyBenchDriver::ParseReport(kDflyCommandReport, w);
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
  auto t = DflyBenchDriver::ParseReport(kDflyRatioReport, Workload{.requests_per_client = 3000});
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->ops, 3000u);
  EXPECT_DOUBLE_EQ(t->throughput, 1500);  // by requests: Count over its Total duration
  EXPECT_DOUBLE_EQ(t->avg_latency, (1000 * 0.4 + 2000 * 0.25) / 3000);
  EXPECT_DOUBLE_EQ(t->p99, 0.9);
}

TEST(DflyBenchDriver, MissingBinaryIsOneLineSayingHowToProvideIt) {
  hosts::LocalHost host(std::filesystem::temp_directory_path() / "dfbench-dfly-missing");
  DflyBenchDriver driver;  // not on PATH here
  if (host.Which("dfly_bench")) GTEST_SKIP() << "dfly_bench is installed on this machine";
  auto st = driver.Prepare(host);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(st.error().message.find("--dfly-bench-binary PATH"), std::string::npos);
}

TEST(DflyBenchDriver, RunKeepsTheReportAndStdout) {
  auto dir =
      std::filesystem::temp_directory_path() / ("dfbench-dfly-fake-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto report = dir / "report.json";
  {
    std::ofstream(report) << kDflyCommandReport;
    std::ofstream out(dir / "dfly_bench");
    out << "#!/bin/sh\n"
        << "for a in \"$@\"; do case \"$a\" in --json_out_file=*) cp '" << report.string()
        << "' \"${a#--json_out_file=}\";; esac; done\n"
        << "echo 'Total time: 15.01s. Overall number of requests: 4500000'\n";
  }
  chmod((dir / "dfly_bench").c_str(), 0755);
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
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dfbench::drivers
