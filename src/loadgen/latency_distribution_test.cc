#include "loadgen/latency_distribution.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/hdr_histogram.h"

namespace dfbench::loadgen {
namespace {

// A section whose histogram holds `count` latencies of `ns` each.
SectionStats SectionOf(const std::string& type, int64_t ns, int64_t count) {
  SectionStats s;
  s.section = "Sets";
  s.type = type;
  s.count = static_cast<uint64_t>(count);
  auto h = core::HdrHistogram::Make(1000, int64_t{3600} * 1000 * 1000 * 1000, 3);
  EXPECT_TRUE(h);
  h->Record(ns, count);
  s.histogram = std::move(*h);
  return s;
}

TEST(LatencyDistribution, TextHasMemtiersHeadingRowsAndWait) {
  Report r;
  r.sections = {SectionOf("SET", 1'000'000, 10), SectionOf("GET", 2'000'000, 10)};
  const std::string text = LatencyDistributionText(r, Config{});
  EXPECT_TRUE(
      text.starts_with("\n\nRequest Latency Distribution\nType     <= msec         Percent\n" +
                       std::string(72, '-') + "\n"))
      << text;
  // One bucket each: its 0 % row and the 100 % row; then memtier's WAIT, which is never sent.
  EXPECT_NE(text.find("SET       1.000        0.000\nSET       1.000      100.000\n---\n"),
            std::string::npos)
      << text;
  EXPECT_TRUE(text.ends_with("GET       2.001      100.000\n---\nWAIT      0.000      100.000\n"))
      << text;
}

TEST(LatencyDistribution, ACommandWithoutLatenciesHasOneRowAt100) {
  Report r;
  SectionStats idle;
  idle.type = "SET";
  r.sections = {idle, SectionOf("GET", 1'000'000, 1)};
  const std::string text = LatencyDistributionText(r, Config{});
  EXPECT_NE(text.find("-\nSET       0.000      100.000\n---\nGET"), std::string::npos) << text;
}

TEST(LatencyDistribution, JsonHasOneArrayPerCommand) {
  Report r;
  r.sections = {SectionOf("LPUSH", 1'000'000, 4)};
  Config config;
  config.commands = {{.text = "LPUSH __key__ __data__"}};
  nlohmann::ordered_json section = nlohmann::ordered_json::object();
  AddLatencyDistributionJson(r, config, &section);
  ASSERT_TRUE(section.contains("LPUSH")) << section.dump();
  EXPECT_FALSE(section.contains("WAIT"));  // a --command run has no WAIT
  ASSERT_EQ(section["LPUSH"].size(), 2u);
  EXPECT_EQ(section["LPUSH"][0]["<=msec"], 1.0);
  EXPECT_EQ(section["LPUSH"][1]["percent"], 100.0);
}

TEST(LatencyDistribution, HiddenByHideHistogram) {
  Report r;
  r.sections = {SectionOf("SET", 1'000'000, 1), SectionOf("GET", 1'000'000, 1)};
  r.totals = SectionOf("TOTALS", 1'000'000, 2);
  r.totals.section = "Totals";
  Config config;
  EXPECT_NE(ReportTable({&r, 1}, config).find("Request Latency Distribution"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(ReportJson({&r, 1}, config))["ALL STATS"].contains("SET"));
  config.hide_histogram = true;
  EXPECT_EQ(ReportTable({&r, 1}, config).find("Request Latency Distribution"), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(ReportJson({&r, 1}, config))["ALL STATS"].contains("SET"));
}

}  // namespace
}  // namespace dfbench::loadgen
