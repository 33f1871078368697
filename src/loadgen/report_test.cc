#include "loadgen/report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "loadgen/histogram.h"
#include "loadgen/stats.h"

namespace dfbench::loadgen {
namespace {

using nlohmann::json;

TEST(PercentileKey, MemtierSpelling) {
  EXPECT_EQ(PercentileKey(50), "p50.00");
  EXPECT_EQ(PercentileKey(99), "p99.00");
  EXPECT_EQ(PercentileKey(99.9), "p99.90");
  EXPECT_EQ(PercentileKey(99.99), "p99.99");
  EXPECT_EQ(PercentileKey(100), "p100.0");
  EXPECT_EQ(PercentileKey(5), "p5.000");
  EXPECT_EQ(PercentileKey(99.999), "p99.999");  // memtier would collide with p99.99
}

TEST(SeriesPercentileKey, MemtiersTwoDecimals) {
  EXPECT_EQ(SeriesPercentileKey(0), "p0.00");
  EXPECT_EQ(SeriesPercentileKey(50), "p50.00");
  EXPECT_EQ(SeriesPercentileKey(99.9), "p99.90");
  EXPECT_EQ(SeriesPercentileKey(100), "p100.0");
  EXPECT_EQ(SeriesPercentileKey(5), "p5.00");
  EXPECT_EQ(SeriesPercentileKey(99.999), "p99.999");  // memtier's would read p100.0
}

TEST(Summarize, ConvertsToMilliseconds) {
  LatencyHistogram h;
  double sum = 0;
  for (int i = 1; i <= 1000; ++i) {
    h.Record(static_cast<uint64_t>(i) * 1000);  // 1 us .. 1 ms
    sum += i * 1000.0;
  }
  LatencySummary s = Summarize(h, sum, {50, 99, 99.9});
  EXPECT_EQ(s.count, 1000u);
  EXPECT_NEAR(s.avg_ms, 0.5005, 1e-9);
  EXPECT_NEAR(s.min_ms, 0.001, 1e-9);
  EXPECT_NEAR(s.max_ms, 1.0, 1e-9);
  ASSERT_EQ(s.percentiles_ms.size(), 3u);
  EXPECT_NEAR(s.percentiles_ms[0], 0.5, 0.001);
  EXPECT_NEAR(s.percentiles_ms[1], 0.99, 0.001);
  EXPECT_NEAR(s.percentiles_ms[2], 0.999, 0.001);
  LatencySummary empty = Summarize(LatencyHistogram{}, 0, {50, 99});
  EXPECT_EQ(empty.count, 0u);
  EXPECT_EQ(empty.percentiles_ms, (std::vector<double>{0, 0}));
}

std::unique_ptr<SecondBlock> Block(int64_t second, size_t slots, uint64_t value_ns, int n) {
  auto b = std::make_unique<SecondBlock>();
  b->second = second;
  b->slots.resize(slots);
  for (int i = 0; i < n; ++i) {
    b->slots[0].latency.Record(value_ns);
    b->slots[0].counters.count++;
    b->slots[0].counters.latency_sum_ns += static_cast<double>(value_ns);
  }
  b->slots[0].counters.bytes_rx = 100;
  b->slots[1].counters.bytes_tx = 7;
  return b;
}

TEST(SeriesCollector, MergesWorkersAndFinishesOnlyPastSeconds) {
  SeriesCollector series(2, {50, 99});
  series.Add(Block(0, 2, 1'000'000, 10));  // worker A, second 0
  series.Add(Block(0, 2, 3'000'000, 10));  // worker B, second 0
  series.Add(Block(1, 2, 2'000'000, 5));   // worker A, second 1
  series.FinishBefore(1);
  ASSERT_NE(series.LastFinished(), nullptr);
  EXPECT_EQ(series.LastFinished()->latency.count, 20u);
  auto totals = series.Totals(3);
  ASSERT_EQ(totals.size(), 3u);
  EXPECT_EQ(totals[0].latency.count, 20u);
  EXPECT_NEAR(totals[0].latency.avg_ms, 2.0, 1e-9);
  EXPECT_NEAR(totals[0].latency.min_ms, 1.0, 0.002);
  EXPECT_NEAR(totals[0].latency.max_ms, 3.0, 0.004);
  EXPECT_EQ(totals[0].bytes_rx, 200u);
  EXPECT_EQ(totals[0].bytes_tx, 14u);
  EXPECT_EQ(totals[1].latency.count, 0u);  // not finished yet
  series.Add(Block(1, 2, 4'000'000, 5));   // worker B, second 1
  series.FinishBefore(INT64_MAX);
  totals = series.Totals(2);
  EXPECT_EQ(totals[1].latency.count, 10u);
  EXPECT_NEAR(totals[1].latency.avg_ms, 3.0, 1e-9);
  auto per_slot = series.PerSlot(2);
  ASSERT_EQ(per_slot.size(), 2u);
  EXPECT_EQ(per_slot[0][1].latency.count, 10u);
  EXPECT_EQ(per_slot[1][1].latency.count, 0u);
  EXPECT_EQ(per_slot[1][1].bytes_tx, 14u);
}

Report SampleReport(const Config& config) {
  Report r;
  r.start_epoch_ms = 1700000000000;
  r.finish_epoch_ms = 1700000002500;
  r.duration_ms = 2500.25;
  auto section = [&](const std::string& name, const std::string& type, bool hits) {
    SectionStats s;
    s.section = name;
    s.type = type;
    s.has_hits = hits;
    s.count = 1000;
    s.hits = hits ? 600 : 0;
    s.misses = hits ? 400 : 0;
    s.bytes_rx = 2048;
    s.bytes_tx = 1024;
    s.latency = {1000, 0.25, 0.01, 3.5, {0.2, 1.5, 3.0}};
    SeriesPoint p;
    p.bytes_rx = 1000;
    p.latency = {600, 0.2, 0.01, 3.5, {0.2, 1.4, 3.0}};
    s.series = {p, p, SeriesPoint{}};
    return s;
  };
  r.sections = {section("Sets", "SET", false), section("Gets", "GET", true)};
  r.totals = section("Totals", "TOTALS", true);
  r.totals.count = 2000;
  r.errors = 3;
  r.error_samples = {"ERR x"};
  (void)config;
  return r;
}

TEST(ReportJson, HasMemtiersLayoutAndOurBlock) {
  const Config config;
  json j = json::parse(ReportJson(SampleReport(config), config));
  for (const char* key : {"server", "port", "protocol", "clients", "threads", "test_time",
                          "requests", "ratio", "pipeline", "data_size", "key_prefix", "key_minimum",
                          "key_maximum", "key_pattern", "run_count", "select-db"}) {
    EXPECT_TRUE(j["configuration"].contains(key)) << key;
  }
  EXPECT_EQ(j["configuration"]["select-db"], 0);
  Config db5;
  db5.select_db = 5;
  EXPECT_EQ(json::parse(ReportJson(SampleReport(db5), db5))["configuration"]["select-db"], 5);
  EXPECT_EQ(j["configuration"]["ratio"], "1:10");
  EXPECT_EQ(j["configuration"]["key_pattern"], "R:R");
  EXPECT_EQ(j["run information"]["Requests per client"], 10000);
  EXPECT_EQ(j["run information"]["Format version"], 2);

  const json& all = j["ALL STATS"];
  EXPECT_EQ(all["Runtime"]["Total duration"], 2500.25);
  EXPECT_EQ(all["Runtime"]["Time unit"], "MILLISECONDS");
  EXPECT_EQ(all["Runtime"]["Interrupted"], "false");
  EXPECT_TRUE(all["Runtime"]["Start time"].is_number_integer());
  for (const char* section : {"Sets", "Gets", "Totals"}) {
    const json& s = all[section];
    for (const char* key :
         {"Count", "Ops/sec", "Hits/sec", "Misses/sec", "Latency", "Average Latency", "Min Latency",
          "Max Latency", "KB/sec", "KB/sec RX", "KB/sec TX"}) {
      EXPECT_TRUE(s[key].is_number()) << section << " " << key;
    }
    EXPECT_EQ(s["Percentile Latencies"].size(), 3u);
    EXPECT_TRUE(s["Percentile Latencies"]["p99.90"].is_number());
    const json& ts = s["Time-Serie"];
    ASSERT_EQ(ts.size(), 3u) << section;
    EXPECT_EQ(ts["0"]["Count"], 600);
    EXPECT_TRUE(ts["0"]["p99.00"].is_number());
    EXPECT_TRUE(ts["1"]["Average Latency"].is_number());
    EXPECT_FALSE(ts["2"].contains("Average Latency"));  // empty second: counts only
    EXPECT_EQ(ts["2"]["Count"], 0);
  }
  EXPECT_EQ(all["Totals"]["Count"], 2000);
  EXPECT_DOUBLE_EQ(all["Totals"]["Ops/sec"].get<double>(), 799.92);
  EXPECT_DOUBLE_EQ(all["Sets"]["Hits/sec"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(all["Gets"]["Hits/sec"].get<double>(), 239.98);
  EXPECT_DOUBLE_EQ(all["Totals"]["Average Latency"].get<double>(), 0.25);

  const json& d = j["dfbench"];
  EXPECT_EQ(d["mode"], "closed-loop");
  EXPECT_EQ(d["errors"], 3);
  EXPECT_EQ(d["error_samples"][0], "ERR x");
  EXPECT_EQ(d["latency_measured_from"], "send");
  EXPECT_EQ(d["latency_measured_to"], "read");
  EXPECT_TRUE(d["uncorrected"].is_null());
  EXPECT_TRUE(d["send_lag"].is_null());  // the closed loop sends each request when it is drawn
  EXPECT_TRUE(d["schedule_tick_us"].is_null());
  for (const char* key :
       {"target_rate", "achieved_rate", "connection_errors", "reconnects", "unanswered"}) {
    EXPECT_TRUE(d[key].is_number()) << key;
  }
  EXPECT_TRUE(d["warmup"]["count"].is_number());
  EXPECT_TRUE(d["warmup"]["duration"].is_number());
  for (const char* key : {"cpu_sec", "wall_sec", "usable_cpus", "utilization"}) {
    EXPECT_TRUE(d["client_cpu"][key].is_number()) << key;
  }
}

// A run whose server went away: lost requests are errors of their commands, connection errors
// are errors of the run, and the report says when the window was cut and how long it ran.
TEST(ReportJson, SaysWhenTheRunEndedEarly) {
  const Config config;
  Report r = SampleReport(config);
  EXPECT_TRUE(json::parse(ReportJson(r, config))["dfbench"]["ended_early"].is_null());
  r.errors = 7;  // 3 error replies and 4 lost requests
  r.lost_requests = 4;
  r.unanswered = 4;
  r.connection_errors = 36;
  r.ended_early = "a connection was lost (Connection reset by peer)";
  r.ended_at_sec = 1.4912;
  r.duration_ms = 4000;
  const json j = json::parse(ReportJson(r, config));
  const json& d = j["dfbench"];
  EXPECT_EQ(d["errors"], 43);
  EXPECT_EQ(d["lost_requests"], 4);
  EXPECT_EQ(d["ended_early"]["at_sec"], 1.491);
  EXPECT_EQ(d["ended_early"]["reason"], r.ended_early);
  EXPECT_EQ(j["ALL STATS"]["Totals"]["Connection Errors"], 36);
  EXPECT_DOUBLE_EQ(j["ALL STATS"]["Totals"]["Ops/sec"].get<double>(), 500.0);  // over 4 s
  const std::string table = ReportTable(r, config);
  EXPECT_NE(table.find("Error replies: 3"), std::string::npos) << table;
  EXPECT_NE(table.find("Unanswered requests: 4 (4 lost, counted as errors)"), std::string::npos);
  EXPECT_NE(table.find("Ended early: a connection was lost (Connection reset by peer) at 1.49 s "
                       "of the measured window (4.00 s)"),
            std::string::npos)
      << table;
}

TEST(ClientCpu, UtilizationIsPerUsableCpu) {
  EXPECT_DOUBLE_EQ((ClientCpu{.cpu_sec = 3, .wall_sec = 2, .usable_cpus = 2}.Utilization()), 0.75);
  EXPECT_DOUBLE_EQ((ClientCpu{.cpu_sec = 1, .wall_sec = 0, .usable_cpus = 2}.Utilization()), 0);
}

TEST(ReportJson, OpenLoopAndCommands) {
  Config config;
  config.pass = core::Pass::Time(std::chrono::seconds(2));
  config.pass.rate_per_sec = 1000;
  config.commands = {{"LPUSH __key__ __data__"}};
  Report r;
  r.open_loop = true;
  r.target_rate = 1000;
  r.duration_ms = 2000;
  r.interrupted = true;
  SectionStats s;
  s.section = "Lpushs";
  s.latency.percentiles_ms = {1, 2, 3};
  s.uncorrected.percentiles_ms = {1, 2, 3};
  r.sections = {s};
  r.totals = s;
  r.totals.section = "Totals";
  r.totals.uncorrected.percentiles_ms = {0.5, 0.6, 0.7};
  r.send_lag.percentiles_ms = {0.01, 0.02, 0.04};
  json j = json::parse(ReportJson(r, config));
  EXPECT_TRUE(j["ALL STATS"].contains("Lpushs"));
  EXPECT_EQ(j["ALL STATS"]["Runtime"]["Interrupted"], "true");
  EXPECT_EQ(j["run information"]["Seconds"], 2);
  EXPECT_EQ(j["configuration"]["test_time"], 2);
  EXPECT_EQ(j["dfbench"]["mode"], "open-loop");
  EXPECT_EQ(j["dfbench"]["latency_measured_from"], "due");
  EXPECT_EQ(j["dfbench"]["latency_measured_to"], "arrival");  // the kernel's receive stamps
  EXPECT_EQ(j["dfbench"]["uncorrected"]["Percentile Latencies"]["p99.90"], 0.7);
  EXPECT_EQ(j["dfbench"]["send_lag"]["Percentile Latencies"]["p99.00"], 0.02);
  EXPECT_EQ(j["dfbench"]["target_rate"], 1000);
  // memtier's 4 x 50 clients at 1,000 ops/s: a client's interval is 200 ms, the tick 2 ms.
  EXPECT_EQ(j["dfbench"]["schedule_tick_us"], 2000);
}

// Every key a memtier result section carries, we carry too (ignoring the ones we do not
// produce on purpose), so parsers written for memtier files read ours.
TEST(ReportJson, CoversMemtiersKeys) {
  std::ifstream in(std::string(DFBENCH_FIXTURES) + "/peers/memtier_c_1to10_distinct_seed.json");
  ASSERT_TRUE(in) << "fixture missing";
  std::stringstream buf;
  buf << in.rdbuf();
  json memtier = json::parse(buf.str());
  const Config config;
  json ours = json::parse(ReportJson(SampleReport(config), config));
  for (const auto& [key, value] : memtier["ALL STATS"]["Totals"].items()) {
    EXPECT_TRUE(ours["ALL STATS"]["Totals"].contains(key)) << key;
  }
  for (const auto& [key, value] : memtier["ALL STATS"]["Runtime"].items()) {
    EXPECT_TRUE(ours["ALL STATS"]["Runtime"].contains(key)) << key;
  }
  for (const auto& [key, value] : memtier["ALL STATS"]["Totals"]["Time-Serie"]["0"].items()) {
    EXPECT_TRUE(ours["ALL STATS"]["Totals"]["Time-Serie"]["0"].contains(key)) << key;
  }
  for (const auto& [key, value] : memtier["run information"].items()) {
    if (key == "Seconds") continue;  // ours ran by requests
    EXPECT_TRUE(ours["run information"].contains(key)) << key;
  }
}

TEST(ReportTable, MemtierLayout) {
  const Config config;
  const std::string table = ReportTable(SampleReport(config), config);
  EXPECT_NE(table.find("4         Threads\n"), std::string::npos) << table;
  EXPECT_NE(table.find("50        Connections per thread\n"), std::string::npos);
  EXPECT_NE(table.find("10000     Requests per client\n"), std::string::npos);
  EXPECT_NE(table.find("ALL STATS\n"), std::string::npos);
  EXPECT_NE(table.find("Type         Ops/sec     Hits/sec   Misses/sec    Avg. Latency     p50 "
                       "Latency     p99 Latency   p99.9 Latency       KB/sec \n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("Sets          399.96          ---          ---         0.25000         "
                       "0.20000         1.50000         3.00000         1.20 \n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("\nTotals        799.92 "), std::string::npos) << table;
  EXPECT_NE(table.find("Error replies: 3 (first: ERR x)"), std::string::npos) << table;
}

TEST(ReportTable, CommandModeHasNoHitColumns) {
  Config config;
  config.commands = {{"LPUSH __key__ __data__"}};
  Report r;
  r.duration_ms = 1000;
  SectionStats s;
  s.section = "Lpushs";
  s.count = 10;
  s.latency.percentiles_ms = {1, 2, 3};
  r.sections = {s};
  r.totals = s;
  r.totals.section = "Totals";
  const std::string table = ReportTable(r, config);
  EXPECT_EQ(table.find("Hits/sec"), std::string::npos) << table;
  EXPECT_NE(table.find("Lpushs         10.00 "), std::string::npos) << table;
}

}  // namespace
}  // namespace dfbench::loadgen
