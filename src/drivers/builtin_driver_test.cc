#include "drivers/builtin_driver.h"

#include <gtest/gtest.h>

namespace dfbench::drivers {
namespace {

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
  std::string joined;
  for (const auto& a : args) joined += a + " ";
  EXPECT_EQ(joined,
            "/bin/dfbench loadgen --server 127.0.0.1 --port 7000 --protocol redis --threads 2 "
            "--clients 10 --pipeline 16 --requests 100 --ratio 1:4 --data-size 128 "
            "--distinct-client-seed --json-out-file /tmp/r ");
}

TEST(BuiltinDriver, TimeBoxedCommandMapsToLoadgenFlags) {
  Workload w{.threads = 32,
             .clients = 5,
             .data_size = 256,
             .pipeline = 20,
             .distinct_client_seed = true,
             .command = "HGET __key__ field:1",
             .key_pattern = KeyPattern::kSequential,
             .key_minimum = 1,
             .key_maximum = 1000000,
             .length = Workload::Length::kTestTime,
             .test_time = std::chrono::seconds(300)};
  auto args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, "redis"}, w, "r.json");
  EXPECT_EQ(args, (std::vector<std::string>{"dfbench",
                                            "loadgen",
                                            "--server",
                                            "127.0.0.1",
                                            "--port",
                                            "7000",
                                            "--protocol",
                                            "redis",
                                            "--threads",
                                            "32",
                                            "--clients",
                                            "5",
                                            "--pipeline",
                                            "20",
                                            "--test-time",
                                            "300s",
                                            "--command",
                                            "HGET __key__ field:1",
                                            "--command-key-pattern",
                                            "S",
                                            "--data-size",
                                            "256",
                                            "--key-minimum",
                                            "1",
                                            "--key-maximum",
                                            "1000000",
                                            "--distinct-client-seed",
                                            "--json-out-file",
                                            "r.json"}));
}

TEST(BuiltinDriver, FillUsesParallelSlicesOverTheWholeRange) {
  Workload w{.threads = 4,
             .clients = 50,
             .pipeline = 20,
             .command = "RPUSH __key__ __data__",
             .key_minimum = 1,
             .key_maximum = 30,
             .length = Workload::Length::kFill};
  auto args = BuiltinDriver::BuildArgs("dfbench", {"127.0.0.1", 7000, "redis"}, w, "r.json");
  std::string joined;
  for (const auto& a : args) joined += a + " ";
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
  joined.clear();
  for (const auto& a : args) joined += a + " ";
  EXPECT_NE(joined.find("--requests allkeys --ratio 1:0 --key-pattern P:P"), std::string::npos)
      << joined;
}

}  // namespace
}  // namespace dfbench::drivers
