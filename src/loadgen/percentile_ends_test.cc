// memtier's --print-percentiles takes 0 and 100: the report shows them as memtier spells them
// ("p0.000", "p100.0" in the JSON), and they are the run's fastest and slowest requests.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "loadgen/report.h"
#include "loadgen/run_ok_test_support.h"
#include "support/test_server.h"

namespace dfbench::loadgen {
namespace {

TEST(PercentileEnds, P0AndP100AreTheMinimumAndTheMaximum) {
  auto server = testing::TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config = QuietRun(1, 2);
  config.port = server->port();
  config.pass.requests_per_client = 200;
  config.load.percentiles = {0, 50, 100};
  const Report report = RunOk(config);
  const auto totals = nlohmann::json::parse(ReportJson(report, config))["ALL STATS"]["Totals"];
  const auto& percentiles = totals["Percentile Latencies"];
  ASSERT_TRUE(percentiles.contains("p0.000")) << percentiles.dump();
  ASSERT_TRUE(percentiles.contains("p100.0")) << percentiles.dump();
  EXPECT_EQ(percentiles["p0.000"], totals["Min Latency"]);
  EXPECT_EQ(percentiles["p100.0"], totals["Max Latency"]);
  EXPECT_LE(percentiles["p0.000"].get<double>(), percentiles["p50.00"].get<double>());
  EXPECT_LE(percentiles["p50.00"].get<double>(), percentiles["p100.0"].get<double>());
  const std::string table = ReportTable(report, config);
  EXPECT_NE(table.find("p0 Latency"), std::string::npos) << table;
  EXPECT_NE(table.find("p100 Latency"), std::string::npos) << table;
}

}  // namespace
}  // namespace dfbench::loadgen
