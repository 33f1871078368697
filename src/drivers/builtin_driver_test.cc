#include "drivers/builtin_driver.h"

#include <gtest/gtest.h>

#include "drivers/driver_test_workloads.h"
#include "support/test_data.h"

namespace dfbench::drivers {
namespace {

using testing::JoinArgs;

// As memtier's --requests: every connection sends the count, so a pass sends
// threads x clients times it.
TEST(Workload, RequestsArePerConnection) {
  Workload w{.threads = 4, .clients = 50, .requests_per_client = 1000000};
  EXPECT_EQ(w.RequestsPerClient(), 1000000u);
  EXPECT_EQ(w.TotalRequests(), 200000000u);
  w.requests_per_client = 1;
  EXPECT_EQ(w.TotalRequests(), 200u);
}

TEST(BuiltinDriver, CommandLineCarriesTheWorkload) {
  Workload w{.threads = 2,
             .clients = 10,
             .requests_per_client = 100,
             .ratio = "1:4",
             .data_size = 128,
             .pipeline = 16,
             .distinct_client_seed = true};
  auto args = BuiltinDriver::BuildArgs("/bin/dfbench", {"127.0.0.1", 7000, "redis"}, w, "/tmp/r");
  EXPECT_EQ(JoinArgs(args),
            "/bin/dfbench loadgen --server 127.0.0.1 --port 7000 --protocol redis --threads 2 "
            "--clients 10 --pipeline 16 --requests 100 --ratio 1:4 --data-size 128 "
            "--distinct-client-seed --json-out-file /tmp/r");
}

TEST(BuiltinDriver, OpenLoopStepCarriesRateWarmupAndPercentiles) {
  Workload w{.threads = 1, .clients = 2, .ratio = "1:10", .data_size = 32, .pipeline = 8};
  w.length = Workload::Length::kTestTime;
  w.test_time = std::chrono::seconds(2);
  w.rate_per_sec = 12500;
  w.warmup_time = std::chrono::milliseconds(400);
  w.percentiles = {50, 90, 99, 99.9};
  auto args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, "redis"}, w, "r.json");
  EXPECT_EQ(JoinArgs(args),
            "dfbench loadgen --server 127.0.0.1 --port 7000 --protocol redis --threads 1 "
            "--clients 2 --pipeline 8 --test-time 2s --ratio 1:10 --data-size 32 --rate 12500 "
            "--warmup-time 400ms --print-percentiles 50,90,99,99.9 --json-out-file r.json");
  // External tools refuse what they would not measure the same way.
  EXPECT_FALSE(RefuseOpenLoop(w, "memtier_benchmark"));
  EXPECT_TRUE(RefuseOpenLoop(Workload{}, "memtier_benchmark"));
}

TEST(BuiltinDriver, TimeBoxedCommandMapsToLoadgenFlags) {
  const Workload w = TimedCommand("HGET __key__ field:1", KeyPattern::kSequential, 300);
  auto args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, "redis"}, w, "r.json");
  const auto want = testing::SplitArgs(
      "dfbench loadgen --server 127.0.0.1 --port 7000 --protocol redis --threads 32 --clients 5 "
      "--pipeline 20 --test-time 300s --command 'HGET __key__ field:1' --command-key-pattern S "
      "--data-size 256 --key-minimum 1 --key-maximum 1000000 --distinct-client-seed "
      "--json-out-file r.json");
  EXPECT_EQ(args, want);
}

TEST(BuiltinDriver, FillUsesParallelSlicesOverTheWholeRange) {
  const Workload w = Fill("RPUSH __key__ __data__", 30, 4, 50);
  auto args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, "redis"}, w, "r.json");
  std::string joined = JoinArgs(args);
  // At most one connection per key: 4 threads x 7 clients for 30 keys.
  EXPECT_NE(joined.find("--threads 4 --clients 7 --pipeline 20 --requests allkeys --command "
                        "RPUSH __key__ __data__ --command-key-pattern P"),
            std::string::npos)
      << joined;
  Workload plain{.threads = 1,
                 .clients = 2,
                 .key_minimum = 1,
                 .key_maximum = 10,
                 .length = Workload::Length::kFill};
  args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, "redis"}, plain, "r.json");
  joined = JoinArgs(args);
  EXPECT_NE(joined.find("--requests allkeys --ratio 1:0 --key-pattern P:P"), std::string::npos)
      << joined;
  EXPECT_EQ(joined.find("--key-prefix"), std::string::npos) << joined;
  plain.key_prefix = "key:";
  joined =
      JoinArgs(BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, "redis"}, plain, "r.json"));
  EXPECT_NE(joined.find("--key-maximum 10 --key-prefix key:"), std::string::npos) << joined;
}

}  // namespace
}  // namespace dfbench::drivers
