// contrib/grafana/dfbench-loadgen.json against the endpoint it charts: every metric its queries
// name is one a real `dfbench loadgen --prometheus-port` run serves, so the dashboard cannot
// drift from prometheus_text.cc.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "core/subprocess.h"
#include "support/prometheus_scrape.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench {
namespace {

using nlohmann::json;

// The metric names of a Prometheus text's samples ("name{labels} value" -> name).
std::set<std::string> ServedNames(const std::string& text) {
  std::set<std::string> names;
  for (const auto& [sample, value] : testing::ParsePrometheus(text)) {
    names.insert(sample.substr(0, sample.find('{')));
  }
  return names;
}

// The names of a scrape taken while a short run has answered requests of both commands.
std::set<std::string> ScrapeARun() {
  auto server = testing::TestServer::StartRedis();
  EXPECT_TRUE(server) << server.error().message;
  if (!server) return {};
  const testing::ScopedTempDir dir("grafana-dashboard");
  const int port = testing::FreePort();
  core::SpawnOptions spawn;
  spawn.argv = {LOADGEN_BINARY,
                "loadgen",
                "-p",
                std::to_string(server->port()),
                "-t",
                "1",
                "-c",
                "2",
                "--test-time",
                "4",
                "--progress",
                "never",
                "--json-out-file",
                (dir / "report.json").string(),
                "--prometheus-port",
                std::to_string(port)};
  spawn.stdout_path = (dir / "out.txt").string();
  auto child = core::Spawn(spawn);
  EXPECT_TRUE(child) << child.error().message;
  if (!child) return {};
  std::string text;
  EXPECT_TRUE(testing::WaitUntil(
      [&] {
        text = testing::ScrapeMetrics(port);
        return text.find("command=\"GET\"") != std::string::npos &&
               text.find("_bucket{") != std::string::npos;
      },
      std::chrono::seconds(30), "a scrape with requests counted"));
  EXPECT_TRUE(child->WaitFor(std::chrono::seconds(60)).has_value());
  return ServedNames(text);
}

TEST(GrafanaDashboard, QueriesUseOnlyMetricsTheEndpointServes) {
  std::ifstream in(std::string(DFBENCH_SOURCE_DIR) + "/contrib/grafana/dfbench-loadgen.json");
  ASSERT_TRUE(in.good());
  const json dashboard = json::parse(in);
  const std::set<std::string> served = ScrapeARun();
  ASSERT_FALSE(served.empty());

  const std::regex metric(R"(\bdfbench_[a-z_]+)");
  std::set<std::string> used;
  ASSERT_TRUE(dashboard["panels"].is_array());
  for (const json& panel : dashboard["panels"]) {
    ASSERT_FALSE(panel["targets"].empty()) << panel["title"];
    for (const json& target : panel["targets"]) {
      const std::string expr = target["expr"].get<std::string>();
      size_t names = 0;
      for (std::sregex_iterator m(expr.begin(), expr.end(), metric), end; m != end; ++m, ++names) {
        EXPECT_TRUE(served.contains(m->str())) << panel["title"] << ": " << m->str();
        used.insert(m->str());
      }
      EXPECT_GT(names, 0u) << panel["title"] << ": " << expr;
    }
  }
  // What the dashboard promises to chart.
  for (const char* name :
       {"dfbench_loadgen_requests_total", "dfbench_loadgen_errors_total",
        "dfbench_loadgen_hits_total", "dfbench_loadgen_misses_total",
        "dfbench_loadgen_received_bytes_total", "dfbench_loadgen_sent_bytes_total",
        "dfbench_loadgen_connections", "dfbench_loadgen_latency_seconds_bucket"}) {
    EXPECT_TRUE(used.contains(name)) << name;
  }
  // The run variable's query too.
  const std::string run_query = dashboard["templating"]["list"][1]["definition"].get<std::string>();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(run_query, m, metric)) << run_query;
  EXPECT_TRUE(served.contains(m.str())) << run_query;
}

}  // namespace
}  // namespace dfbench
