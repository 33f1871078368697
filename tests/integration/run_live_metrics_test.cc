// `dfbench run --statsd / --prometheus-port` on a local setup with redis-server: every load
// generator of every pass sends live metrics labelled <engine>-<pass>, caught by a UDP listener
// in the test and scraped from the endpoint while a trial runs.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <set>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/local_socket.h"
#include "support/prometheus_scrape.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// A short run of redis on setup `id`: a warmup and two time-boxed trials of 2 s.
std::vector<std::string> ShortRun(const std::string& id, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run",   "--id",
                                   id,      "--engines",
                                   "redis", "--memtier-threads",
                                   "2",     "--memtier-clients",
                                   "2",     "--memtier-pipeline",
                                   "1",     "--test-time",
                                   "2",     "--warmup-requests",
                                   "50",    "--trials",
                                   "2",     "--cooldown",
                                   "0",     "--output",
                                   "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The labels of memtier-style datagrams "memtier.<label>.<name>:<value>|<type>".
std::set<std::string> StatsdLabels(const std::vector<std::string>& datagrams) {
  std::set<std::string> labels;
  for (const std::string& d : datagrams) {
    EXPECT_TRUE(d.starts_with("memtier.")) << d;
    const size_t dot = d.find('.', 8);
    if (d.starts_with("memtier.") && dot != std::string::npos) labels.insert(d.substr(8, dot - 8));
  }
  return labels;
}

TEST(RunLiveMetrics, StatsdLabelsEveryPassOfEveryGenerator) {
  DfbenchRunner dfb("run-statsd");
  ASSERT_NO_FATAL_FAILURE(dfb.RunOk({"setup", "--id", "st", "--engines", "redis"}));
  const LocalSocket statsd(SOCK_DGRAM);
  const std::string to = "127.0.0.1:" + std::to_string(statsd.port());
  const json out = SucceededJson(dfb.Run(ShortRun("st", {"--statsd", to})));
  ASSERT_EQ(out["engines"][0]["trials"].size(), 2u);
  EXPECT_EQ(StatsdLabels(statsd.Datagrams()),
            (std::set<std::string>{"redis-warmup", "redis-t1", "redis-t2"}));
  const json config = json::parse(*core::ReadFile(
      dfb.SetupDir("st") / "benchmarks" / out["run_id"].get<std::string>() / "config.json"));
  EXPECT_EQ(config["live_metrics"], json({{"statsd", to}}));

  // Two generator processes: each its own label, that of its own report.
  const LocalSocket split(SOCK_DGRAM);
  const std::string split_to = "127.0.0.1:" + std::to_string(split.port());
  SucceededJson(dfb.Run(ShortRun("st", {"--statsd", split_to, "--loadgen-processes", "2"})));
  EXPECT_EQ(StatsdLabels(split.Datagrams()),
            (std::set<std::string>{"redis-warmup-1", "redis-warmup-2", "redis-t1-1", "redis-t1-2",
                                   "redis-t2-1", "redis-t2-2"}));
}

TEST(RunLiveMetrics, PrometheusEndpointIsScrapedMidTrial) {
  DfbenchRunner dfb("run-prometheus");
  ASSERT_NO_FATAL_FAILURE(dfb.RunOk({"setup", "--id", "pr", "--engines", "redis"}));
  const int port = FreePort();
  core::Process run = dfb.Start(ShortRun("pr", {"--prometheus-port", std::to_string(port)}));
  std::set<std::string> seen;
  EXPECT_TRUE(WaitUntil(
      [&] {
        for (const auto& [sample, value] : ParsePrometheus(ScrapeMetrics(port))) {
          for (const char* label : {"redis-t1", "redis-t2"}) {
            const std::string requests =
                std::string("dfbench_loadgen_requests_total{run=\"") + label + "\"";
            if (sample.starts_with(requests) && value > 0) seen.insert(label);
          }
        }
        return seen.size() == 2;
      },
      std::chrono::seconds(120), "both trials' requests on the endpoint"))
      << dfb.BackgroundErrTail();
  const auto status = run.WaitFor(std::chrono::seconds(120));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 0) << dfb.BackgroundErrTail();
}

TEST(RunLiveMetrics, MemtierServesNoPrometheusEndpoint) {
  DfbenchRunner dfb("run-memtier-metrics");
  const auto r =
      dfb.Run(ShortRun("none", {"--load-generator", "memtier", "--prometheus-port", "9100"}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--prometheus-port: memtier_benchmark serves no Prometheus endpoint"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
}

}  // namespace
}  // namespace dfbench::testing
