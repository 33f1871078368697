#include "drivers/builtin_driver.h"

#include <gtest/gtest.h>

#include "drivers/driver_test_workloads.h"
#include "support/test_data.h"

namespace dfbench::drivers {
namespace {

using testing::JoinArgs;

// As memtier's --requests: every connection sends the count, so a pass sends
// threads x clients times it.
TEST(Load, RequestsArePerConnection) {
  const core::Load load{.threads = 4, .clients = 50};
  EXPECT_EQ(core::TotalRequests(load, core::Pass::Requests(1000000)), 200000000u);
  EXPECT_EQ(core::TotalRequests(load, core::Pass::Requests(1)), 200u);
}

TEST(BuiltinDriver, CommandLineCarriesTheLoad) {
  const core::Load load{.threads = 2,
                        .clients = 10,
                        .pipeline = 16,
                        .data_size = 128,
                        .distinct_client_seed = true,
                        .ratio = {.set = 1, .get = 4}};
  auto args = BuiltinDriver::BuildArgs("/bin/dfbench", {"127.0.0.1", 7000, core::Protocol::kRedis},
                                       load, core::Pass::Requests(100), "/tmp/r");
  EXPECT_EQ(JoinArgs(args),
            "/bin/dfbench loadgen --server 127.0.0.1 --port 7000 --protocol redis --threads 2 "
            "--clients 10 --pipeline 16 --requests 100 --ratio 1:4 --data-size 128 "
            "--distinct-client-seed --error-replies apart --json-out-file /tmp/r");
}

TEST(BuiltinDriver, AClusterTargetIsDrivenInClusterMode) {
  const drivers::Target cluster{.address = "127.0.0.1", .port = 7000, .cluster = true};
  auto args = BuiltinDriver::BuildArgs("dfbench", cluster, core::kRunLoad, core::Pass::Requests(10),
                                       "r.json");
  EXPECT_NE(JoinArgs(args).find(" --pipeline 30 --cluster-mode "), std::string::npos)
      << JoinArgs(args);
}

// An endpoint's database (its URL's /N) reaches every connection of the generator.
TEST(BuiltinDriver, AnEndpointsDatabaseIsSelected) {
  const drivers::Target db5{.address = "127.0.0.1", .port = 7000, .user = "bench", .db = 5};
  auto args =
      BuiltinDriver::BuildArgs("dfbench", db5, core::kRunLoad, core::Pass::Requests(10), "r.json");
  EXPECT_NE(JoinArgs(args).find(" --user bench --select-db 5 "), std::string::npos)
      << JoinArgs(args);
  const drivers::Target db0{.address = "127.0.0.1", .port = 7000};
  args =
      BuiltinDriver::BuildArgs("dfbench", db0, core::kRunLoad, core::Pass::Requests(10), "r.json");
  EXPECT_EQ(JoinArgs(args).find("--select-db"), std::string::npos) << JoinArgs(args);
}

TEST(BuiltinDriver, OpenLoopStepCarriesRateWarmupAndPercentiles) {
  const core::Load load{.threads = 1,
                        .clients = 2,
                        .pipeline = 8,
                        .data_size = 32,
                        .ratio = {.set = 1, .get = 10},
                        .percentiles = {50, 90, 99, 99.9}};
  core::Pass pass = core::Pass::Time(std::chrono::seconds(2));
  pass.rate_per_sec = 12500;
  pass.warmup_time = std::chrono::milliseconds(400);
  auto args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, core::Protocol::kRedis}, load,
                                       pass, "r.json");
  EXPECT_EQ(
      JoinArgs(args),
      "dfbench loadgen --server 127.0.0.1 --port 7000 --protocol redis --threads 1 "
      "--clients 2 --pipeline 8 --test-time 2s --ratio 1:10 --data-size 32 --error-replies apart "
      "--rate 12500 "
      "--warmup-time 400ms --print-percentiles 50,90,99,99.9 --json-out-file r.json");
  // External tools refuse what they would not measure the same way.
  EXPECT_FALSE(RefuseOpenLoop(pass, "memtier_benchmark"));
  EXPECT_TRUE(RefuseOpenLoop(core::Pass{}, "memtier_benchmark"));
}

TEST(BuiltinDriver, TimeBoxedCommandMapsToLoadgenFlags) {
  const LoadedPass w = TimedCommand("HGET __key__ field:1", core::KeyPattern::kSequential, 300);
  auto args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, core::Protocol::kRedis},
                                       w.load, w.pass, "r.json");
  const auto want = testing::SplitArgs(
      "dfbench loadgen --server 127.0.0.1 --port 7000 --protocol redis --threads 32 --clients 5 "
      "--pipeline 20 --test-time 300s --command 'HGET __key__ field:1' --command-key-pattern S "
      "--data-size 256 --key-minimum 1 --key-maximum 1000000 --distinct-client-seed "
      "--error-replies apart --json-out-file r.json");
  EXPECT_EQ(args, want);
}

TEST(BuiltinDriver, FillUsesParallelSlicesOverTheWholeRange) {
  const LoadedPass w = Fill("RPUSH __key__ __data__", 30, 4, 50);
  auto args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, core::Protocol::kRedis},
                                       w.load, w.pass, "r.json");
  std::string joined = JoinArgs(args);
  // At most one connection per key: 4 threads x 7 clients for 30 keys.
  EXPECT_NE(joined.find("--threads 4 --clients 7 --pipeline 20 --requests allkeys --command "
                        "RPUSH __key__ __data__ --command-key-pattern P"),
            std::string::npos)
      << joined;
  core::Load plain{.threads = 1, .clients = 2, .key_minimum = 1, .key_maximum = 10};
  args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, core::Protocol::kRedis}, plain,
                                  core::Pass::Fill(), "r.json");
  joined = JoinArgs(args);
  EXPECT_NE(joined.find("--requests allkeys --ratio 1:0 --key-pattern P:P"), std::string::npos)
      << joined;
  EXPECT_EQ(joined.find("--key-prefix"), std::string::npos) << joined;
  plain.key_prefix = "key:";
  joined = JoinArgs(BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, core::Protocol::kRedis},
                                             plain, core::Pass::Fill(), "r.json"));
  EXPECT_NE(joined.find("--key-maximum 10 --key-prefix key:"), std::string::npos) << joined;
}

}  // namespace
}  // namespace dfbench::drivers
