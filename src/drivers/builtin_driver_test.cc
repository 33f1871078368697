#include "drivers/builtin_driver.h"

#include <gtest/gtest.h>

namespace dfbench::drivers {
namespace {

TEST(Workload, RequestsAreSplitOverConnectionsRoundingUp) {
  Workload w{.threads = 4, .clients = 50, .total_requests = 1000000};
  EXPECT_EQ(w.RequestsPerClient(), 5000u);
  w.total_requests = 1000001;
  EXPECT_EQ(w.RequestsPerClient(), 5001u);
  w.total_requests = 1;
  EXPECT_EQ(w.RequestsPerClient(), 1u);
}

TEST(BuiltinDriver, CommandLineCarriesTheWorkload) {
  Workload w{.threads = 2,
             .clients = 10,
             .total_requests = 2000,
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

}  // namespace
}  // namespace dfbench::drivers
