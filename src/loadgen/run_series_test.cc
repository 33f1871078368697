#include "loadgen/run_series.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace dfbench::loadgen {
namespace {

// A run of `ops` GETs in `seconds`, every reply taking `latency_us`.
Report Run(uint64_t ops, double seconds, int64_t latency_us, int64_t start_ms) {
  Report r;
  r.start_epoch_ms = start_ms;
  r.finish_epoch_ms = start_ms + static_cast<int64_t>(seconds * 1000);
  r.duration_ms = seconds * 1000;
  r.achieved_rate = static_cast<double>(ops) / seconds;
  r.reconnects = 1;
  SectionStats s;
  s.section = "Gets";
  s.type = "GET";
  s.has_hits = true;
  s.count = ops;
  s.hits = ops / 2;
  s.misses = ops - ops / 2;
  s.bytes_rx = ops * 10;
  const double ms = static_cast<double>(latency_us) / 1000;
  s.latency = {.count = ops, .avg_ms = ms, .min_ms = ms, .max_ms = ms, .percentiles_ms = {ms}};
  s.histogram = *core::HdrHistogram::Make(1, 3'600'000'000'000, 3);
  s.histogram->Record(latency_us * 1000, static_cast<int64_t>(ops));
  SectionStats t = s;
  t.section = "Totals";
  t.type = "TOTALS";
  r.sections.push_back(s);
  r.totals = t;
  return r;
}

Config ThreeRuns(bool print_all) {
  Config c;
  c.load.percentiles = {50};
  c.run_count = 3;
  c.print_all_runs = print_all;
  return c;
}

// 1000 ops/s, 3000 ops/s, 1000 ops/s: best the second, worst the first of the two equal.
std::vector<Report> Runs() {
  return {Run(1000, 1, 100, 10'000), Run(6000, 2, 300, 20'000), Run(2000, 2, 200, 30'000)};
}

TEST(RunSeries, BestAndWorstByOpsPerSecondFirstOfEquals) {
  const auto runs = Runs();
  EXPECT_EQ(BestRun(runs), 1u);
  EXPECT_EQ(WorstRun(runs), 0u);
}

TEST(RunSeries, TheAverageSumsCountsAndAveragesRatesAndLatencies) {
  const Config config = ThreeRuns(false);
  const auto runs = Runs();
  const Report avg = AverageRuns(runs, config);
  EXPECT_EQ(avg.totals.count, 9000u);
  EXPECT_EQ(avg.sections.at(0).hits, 500u + 3000 + 1000);
  // The mean of 1000, 3000 and 1000 ops/s: no single duration gives it.
  const SectionRates rates = RatesOf(avg.totals, avg, true);
  EXPECT_DOUBLE_EQ(rates.ops, 5000.0 / 3);
  EXPECT_DOUBLE_EQ(RatesOf(avg.sections[0], avg, false).kb_rx, 10 * 5000.0 / 3 / 1024);
  EXPECT_DOUBLE_EQ(avg.totals.latency.avg_ms, 0.2);  // (0.1 + 0.3 + 0.2) / 3, memtier's
  EXPECT_DOUBLE_EQ(avg.totals.latency.min_ms, 0.1);
  EXPECT_DOUBLE_EQ(avg.totals.latency.max_ms, 0.3);
  // The median of the merged histogram: 6000 of the 9000 replies took 300 us.
  EXPECT_NEAR(avg.totals.latency.percentiles_ms.at(0), 0.3, 0.001);
  EXPECT_EQ(avg.totals.histogram->total_count(), 9000);
  EXPECT_TRUE(avg.totals.series.empty());
  EXPECT_EQ(avg.start_epoch_ms, 10'000);
  EXPECT_EQ(avg.finish_epoch_ms, 32'000);
  EXPECT_DOUBLE_EQ(avg.duration_ms, 5000);
  EXPECT_EQ(avg.reconnects, 3u);
  EXPECT_DOUBLE_EQ(avg.achieved_rate, 5000.0 / 3);
}

TEST(RunSeries, TheLastRunsInterruptMarksTheAverage) {
  auto runs = Runs();
  runs.back().interrupted = true;
  EXPECT_TRUE(AverageRuns(runs, ThreeRuns(false)).interrupted);
  runs.back().interrupted = false;
  runs.front().interrupted = true;  // never so: an interrupt ends the series
  EXPECT_FALSE(AverageRuns(runs, ThreeRuns(false)).interrupted);
}

std::vector<std::string> Titles(const std::vector<TitledReport>& sections) {
  std::vector<std::string> titles;
  titles.reserve(sections.size());
  for (const auto& s : sections) titles.push_back(s.title);
  return titles;
}

TEST(RunSeries, SectionsAreMemtiers) {
  const auto runs = Runs();
  Config one;
  EXPECT_EQ(Titles(RunSections(std::span(runs).first(1), one)),
            std::vector<std::string>{"ALL STATS"});
  const auto sections = RunSections(runs, ThreeRuns(false));
  EXPECT_EQ(Titles(sections), (std::vector<std::string>{"BEST RUN RESULTS", "WORST RUN RESULTS",
                                                        "AGGREGATED AVERAGE RESULTS (3 runs)"}));
  EXPECT_EQ(sections[0].report.start_epoch_ms, 20'000);
  EXPECT_EQ(sections[1].report.start_epoch_ms, 10'000);
  EXPECT_EQ(Titles(RunSections(runs, ThreeRuns(true))),
            (std::vector<std::string>{"RUN #1 RESULTS", "RUN #2 RESULTS", "RUN #3 RESULTS",
                                      "BEST RUN RESULTS", "WORST RUN RESULTS",
                                      "AGGREGATED AVERAGE RESULTS (3 runs)"}));
  // An interrupt in the second of three runs: the runs done, under memtier's titles.
  EXPECT_EQ(Titles(RunSections(std::span(runs).first(2), ThreeRuns(false))).back(),
            "AGGREGATED AVERAGE RESULTS (2 runs)");
}

TEST(RunSeries, TheJsonAndTableHoldEverySection) {
  const Config config = ThreeRuns(true);
  const auto runs = Runs();
  const auto j = nlohmann::json::parse(ReportJson(runs, config));
  EXPECT_FALSE(j.contains("ALL STATS"));
  EXPECT_EQ(j["RUN #2 RESULTS"]["Totals"]["Count"], 6000);
  EXPECT_EQ(j["BEST RUN RESULTS"]["Totals"]["Ops/sec"], 3000.0);
  const auto& avg = j["AGGREGATED AVERAGE RESULTS (3 runs)"];
  EXPECT_EQ(avg["Totals"]["Count"], 9000);
  EXPECT_EQ(avg["Totals"]["Ops/sec"], 1666.67);
  EXPECT_TRUE(avg["Totals"]["Time-Serie"].empty());
  EXPECT_EQ(avg["Runtime"]["Interrupted"], "false");
  EXPECT_EQ(j["configuration"]["run_count"], 3);
  EXPECT_EQ(j["configuration"]["print-all-runs"], "true");
  // Our block describes the average.
  EXPECT_EQ(j["dfbench"]["runs"], 3);
  EXPECT_EQ(j["dfbench"]["reconnects"], 3);
  const std::string table = ReportTable(runs, config);
  for (const char* title : {"\n\nRUN #3 RESULTS\n===", "\n\nBEST RUN RESULTS\n===",
                            "\n\nAGGREGATED AVERAGE RESULTS (3 runs)\n==="}) {
    EXPECT_NE(table.find(title), std::string::npos) << title;
  }
  EXPECT_NE(table.find("Totals"), std::string::npos);
  EXPECT_NE(table.find("     1666.67 "), std::string::npos) << table;
}

}  // namespace
}  // namespace dfbench::loadgen
