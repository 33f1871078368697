// loadgen's live metrics end to end, against redis-server: the StatsD datagrams and Graphite
// events memtier_benchmark sends, caught by listeners in the test, and the Prometheus endpoint
// scraped while the load runs; each held against the run's own JSON report.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <map>
#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "support/local_socket.h"
#include "support/prometheus_scrape.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench {
namespace {

using testing::LocalSocket;
using testing::ParsePrometheus;
using testing::ReadJson;
using testing::ScopedTempDir;
using testing::ScrapeMetrics;
using testing::TestServer;

struct Metric {
  std::string name;  // without the prefix
  double value;
  std::string type;
};

// "memtier.itest.ops_sec:12|g" -> {ops_sec, 12, g}; every datagram must carry `prefix`.
std::vector<Metric> ParseStatsd(const std::vector<std::string>& datagrams,
                                const std::string& prefix) {
  std::vector<Metric> out;
  for (const auto& d : datagrams) {
    const size_t colon = d.find(':');
    const size_t bar = d.find('|');
    EXPECT_TRUE(d.starts_with(prefix) && colon != std::string::npos && bar > colon) << d;
    if (!d.starts_with(prefix) || colon == std::string::npos || bar == std::string::npos) continue;
    out.push_back({d.substr(prefix.size(), colon - prefix.size()),
                   std::stod(d.substr(colon + 1, bar - colon - 1)), d.substr(bar + 1)});
  }
  return out;
}

std::vector<double> Values(const std::vector<Metric>& metrics, const std::string& name) {
  std::vector<double> out;
  for (const auto& m : metrics) {
    if (m.name == name) out.push_back(m.value);
  }
  return out;
}

TEST(LoadgenMetrics, StatsdAndGraphiteAsMemtierSendsThem) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const LocalSocket statsd(SOCK_DGRAM);
  const LocalSocket graphite(SOCK_STREAM);
  const ScopedTempDir dir("loadgen-metrics");
  const auto json_path = dir / "report.json";
  auto r = core::RunCapture({LOADGEN_BINARY,
                             "loadgen",
                             "-p",
                             std::to_string(server->port()),
                             "-t",
                             "2",
                             "-c",
                             "2",
                             "--test-time",
                             "3",
                             "--progress",
                             "never",
                             "--json-out-file",
                             json_path.string(),
                             "--statsd-host",
                             "127.0.0.1",
                             "--statsd-port",
                             std::to_string(statsd.port()),
                             "--statsd-run-label",
                             "itest",
                             "--graphite-port",
                             std::to_string(graphite.port())},
                            std::chrono::seconds(60));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->status.code, 0) << r->err;
  const auto j = ReadJson(json_path);
  ASSERT_TRUE(j.is_object());
  const auto& totals = j["ALL STATS"]["Totals"];

  const auto metrics = ParseStatsd(statsd.Datagrams(), "memtier.itest.");
  std::map<std::string, std::string> types;
  for (const auto& m : metrics) types[m.name] = m.type;
  const std::map<std::string, std::string> memtier = {
      {"ops_sec", "g"},     {"ops_sec_avg", "g"},     {"bytes_sec", "g"},    {"bytes_sec_avg", "g"},
      {"latency_ms", "ms"}, {"latency_avg_ms", "ms"}, {"connections", "g"},  {"progress_pct", "g"},
      {"latency_p50", "g"}, {"latency_p99", "g"},     {"latency_p99_9", "g"}};
  EXPECT_EQ(types, memtier);

  // One ops_sec and bytes_sec per second of the window, as the report's time series has them,
  // then the 0 that ends the graph.
  const auto ops = Values(metrics, "ops_sec");
  const auto bytes = Values(metrics, "bytes_sec");
  const auto& series = totals["Time-Serie"];
  ASSERT_GE(ops.size(), 4u);
  ASSERT_EQ(bytes.size(), ops.size());
  EXPECT_EQ(ops.back(), 0);
  double sum = 0;
  for (size_t s = 0; s + 1 < ops.size(); ++s) {
    const auto key = std::to_string(s);
    const double count = series.contains(key) ? series[key]["Count"].get<double>() : 0;
    const double moved = series.contains(key) ? series[key]["Bytes RX"].get<double>() +
                                                    series[key]["Bytes TX"].get<double>()
                                              : 0;
    EXPECT_EQ(ops[s], count) << "second " << s;
    EXPECT_EQ(bytes[s], moved) << "second " << s;
    sum += ops[s];
  }
  EXPECT_EQ(sum, totals["Count"].get<double>());

  // The whole run's averages last (memtier casts the rates to whole numbers), then 0.
  const auto avg = Values(metrics, "ops_sec_avg");
  ASSERT_GE(avg.size(), 2u);
  EXPECT_EQ(avg.back(), 0);
  EXPECT_NEAR(avg[avg.size() - 2], totals["Ops/sec"].get<double>(), 1.0);
  const auto latency = Values(metrics, "latency_avg_ms");
  EXPECT_NEAR(latency.back(), totals["Average Latency"].get<double>(), 0.001);
  const auto connections = Values(metrics, "connections");
  EXPECT_EQ(connections.front(), 4);  // 2 threads x 2 connections, all running
  EXPECT_EQ(connections.back(), 0);
  ASSERT_GE(metrics.size(), 5u);
  for (size_t i = metrics.size() - 5; i < metrics.size(); ++i) {
    EXPECT_EQ(metrics[i].value, 0) << metrics[i].name;
  }

  // The events, to the StatsD host at the Graphite port.
  const std::string started = graphite.NextRequest();
  EXPECT_TRUE(started.starts_with("POST /events/ HTTP/1.1\r\n")) << started;
  EXPECT_TRUE(started.ends_with(
      R"({"what":"Benchmark Started","tags":"memtier,start,run:itest","data":"threads=2 connections=2 run=1"})"))
      << started;
  const std::string completed = graphite.NextRequest();
  EXPECT_TRUE(completed.ends_with(
      R"({"what":"Benchmark Completed","tags":"memtier,end,run:itest","data":"run=1"})"))
      << completed;
}

TEST(LoadgenMetrics, PrometheusIsScrapedWhileTheLoadRuns) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-metrics");
  const auto json_path = dir / "report.json";
  const int port = testing::FreePort();
  core::SpawnOptions spawn;
  spawn.argv = {LOADGEN_BINARY,
                "loadgen",
                "-p",
                std::to_string(server->port()),
                "-t",
                "2",
                "-c",
                "2",
                "--test-time",
                "4",
                "--progress",
                "never",
                "--json-out-file",
                json_path.string(),
                "--statsd-run-label",
                "prom",
                "--prometheus-port",
                std::to_string(port)};
  spawn.stdout_path = (dir / "out.txt").string();
  auto child = core::Spawn(spawn);
  ASSERT_TRUE(child) << child.error().message;
  const std::string set = R"(dfbench_loadgen_requests_total{run="prom",command="SET"})";
  const std::string get = R"(dfbench_loadgen_requests_total{run="prom",command="GET"})";
  std::map<std::string, double> scraped;
  ASSERT_TRUE(testing::WaitUntil(
      [&] {
        scraped = ParsePrometheus(ScrapeMetrics(port));
        return scraped[get] > 0;
      },
      std::chrono::seconds(30), "a scrape with GETs counted"));
  EXPECT_EQ(scraped[R"(dfbench_loadgen_connections{run="prom"})"], 4);
  const std::string count = R"(dfbench_loadgen_latency_seconds_count{run="prom",command="GET"})";
  EXPECT_EQ(scraped[count], scraped[get]);
  EXPECT_EQ(
      scraped[R"(dfbench_loadgen_latency_seconds_bucket{run="prom",command="GET",le="+Inf"})"],
      scraped[get]);
  auto status = child->WaitFor(std::chrono::seconds(60));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 0);

  // Each counter is the sum of the report's first seconds of its command.
  const auto j = ReadJson(json_path);
  ASSERT_TRUE(j.is_object());
  const auto& stats = j["ALL STATS"];
  for (const auto& [section, name] : {std::pair{"Sets", set}, std::pair{"Gets", get}}) {
    const auto& series = stats[section]["Time-Serie"];
    double prefix_sum = 0;
    bool matched = scraped[name] == 0;
    for (size_t s = 0; !matched && series.contains(std::to_string(s)); ++s) {
      prefix_sum += series[std::to_string(s)]["Count"].get<double>();
      matched = prefix_sum == scraped[name];
    }
    EXPECT_TRUE(matched) << section << ": scraped " << scraped[name] << ", report "
                         << stats[section]["Count"];
  }
  const std::string hits = R"(dfbench_loadgen_hits_total{run="prom",command="GET"})";
  const std::string misses = R"(dfbench_loadgen_misses_total{run="prom",command="GET"})";
  EXPECT_EQ(scraped[hits] + scraped[misses], scraped[get]);
}

}  // namespace
}  // namespace dfbench
