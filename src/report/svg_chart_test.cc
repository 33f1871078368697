#include "report/svg_chart.h"

#include <gtest/gtest.h>

#include "support/test_data.h"

namespace dfbench::report::svg {
namespace {

using testing::CountOccurrences;

TEST(Escape, EscapesMarkupAndQuotes) {
  EXPECT_EQ(Escape("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  EXPECT_EQ(Escape("plain µs"), "plain µs");
}

TEST(NiceTicks, RoundStepsCoveringTheMaximum) {
  EXPECT_EQ(NiceTicks(0), (std::vector<double>{0, 1}));
  EXPECT_EQ(NiceTicks(-3), (std::vector<double>{0, 1}));
  EXPECT_EQ(NiceTicks(100), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(NiceTicks(97), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(NiceTicks(101), (std::vector<double>{0, 25, 50, 75, 100, 125}));
  EXPECT_EQ(NiceTicks(2646502), (std::vector<double>{0, 1e6, 2e6, 3e6}));
  EXPECT_EQ(NiceTicks(7.3), (std::vector<double>{0, 2, 4, 6, 8}));
  const auto small = NiceTicks(0.42);
  ASSERT_EQ(small.size(), 6u);
  EXPECT_DOUBLE_EQ(small[1], 0.1);
  EXPECT_DOUBLE_EQ(small.back(), 0.5);
}

TEST(TickLabel, DecimalsFollowTheStep) {
  EXPECT_EQ(TickLabel(0, 1), "0");
  EXPECT_EQ(TickLabel(2.5, 2.5), "2.5");
  EXPECT_EQ(TickLabel(0.30000000000000004, 0.1), "0.3");
  EXPECT_EQ(TickLabel(40, 20), "40");
  EXPECT_EQ(TickLabel(250000, 250000), "250k");
  EXPECT_EQ(TickLabel(1500000, 500000), "1.5M");
  EXPECT_EQ(TickLabel(50000, 50000), "50k");
  EXPECT_EQ(TickLabel(3000000, 1000000), "3M");
}

TEST(RenderBarChart, OneBarPerValueWithWhiskersAndEscapedLabels) {
  BarChart chart{
      .title = "Throughput <per> engine", .unit = "ops/s", .categories = {"redis", "<img src=x>"}};
  chart.series.push_back(
      {.name = "median",
       .color = "#dc2626",
       .bars = {{.value = 500000, .low = 490000, .high = 510000, .label = "500k"},
                {.value = 600000, .label = "600k"}}});
  const std::string svg = RenderBarChart(chart);
  EXPECT_EQ(svg.rfind("<svg class=\"chart bar-chart\"", 0), 0u);
  EXPECT_EQ(CountOccurrences(svg, "class=\"bar\""), 2u);
  EXPECT_EQ(CountOccurrences(svg, "class=\"whisker\""), 1u);
  EXPECT_EQ(CountOccurrences(svg, "class=\"value-label\""), 2u);
  EXPECT_NE(svg.find("Throughput &lt;per&gt; engine"), std::string::npos);
  EXPECT_NE(svg.find("&lt;img src=x&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  EXPECT_NE(svg.find(">ops/s<"), std::string::npos);
  EXPECT_NE(svg.find(">400k<"), std::string::npos) << svg;  // a y tick
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST(RenderBarChart, AbsentBarsLeaveGapsAndEmptyChartsSayNoData) {
  BarChart chart{.title = "t", .categories = {"a", "b"}};
  chart.series.push_back(
      {.name = "s", .color = "#000", .bars = {{.value = 1}, {.present = false}}});
  EXPECT_EQ(CountOccurrences(RenderBarChart(chart), "class=\"bar\""), 1u);
  EXPECT_NE(RenderBarChart(BarChart{.title = "empty"}).find("no data"), std::string::npos);
}

TEST(RenderLineChart, PathsAndMarkers) {
  LineChart chart{.title = "qps=100000 · rps", .x_unit = "time (s)", .y_unit = "rps"};
  chart.series.push_back(
      {.name = "rps", .color = "#2563eb", .points = {{1, 100}, {2, 200}, {3, 150}}});
  chart.markers.push_back({.x = 1.5, .label = "stable sync after 1.5 s"});
  const std::string svg = RenderLineChart(chart);
  EXPECT_EQ(svg.rfind("<svg class=\"chart line-chart\"", 0), 0u);
  EXPECT_EQ(CountOccurrences(svg, "class=\"series-line\""), 1u);
  EXPECT_EQ(CountOccurrences(svg, "class=\"marker-line\""), 1u);
  EXPECT_NE(svg.find(">stable sync after 1.5 s<"), std::string::npos);
  // Three points: a move and two lines.
  const size_t d = svg.find(" d=\"M");
  ASSERT_NE(d, std::string::npos);
  const std::string path = svg.substr(d, svg.find('"', d + 4) - d);
  EXPECT_EQ(CountOccurrences(path, " L"), 2u) << path;
  EXPECT_NE(RenderLineChart(LineChart{.title = "none"}).find("no data"), std::string::npos);
}

TEST(RenderLineChart, LogAxisHasADecadePerTickAndLevelsAreDrawn) {
  LineChart chart{.title = "redis · latency", .x_unit = "ops/s", .y_unit = "ms", .log_y = true};
  chart.series.push_back({.name = "p99",
                          .color = "#dc2626",
                          .points = {{1000, 0.2}, {2000, 0.5}, {3000, 40}},
                          .dots = true});
  chart.levels.push_back({.y = 2, .label = "p99<=2ms"});
  const std::string svg = RenderLineChart(chart);
  // 0.1 .. 100 ms: four decades, five ticks.
  for (const char* tick : {">0.1<", ">1<", ">10<", ">100<"}) {
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  }
  EXPECT_EQ(CountOccurrences(svg, "class=\"point\""), 3u);
  EXPECT_EQ(CountOccurrences(svg, "class=\"level-line\""), 1u);
  EXPECT_NE(svg.find(">p99&lt;=2ms<"), std::string::npos);
  // Equal steps per decade: 0.2 -> 2 ms is as far as 2 -> 20 ms would be; 2 ms sits one decade
  // above 0.2 ms, i.e. a quarter of the plot height over four decades.
  auto y_of_circle = [&](size_t n) {
    size_t at = 0;
    for (size_t i = 0; i <= n; ++i) at = svg.find("class=\"point\"", at + 1);
    const size_t cy = svg.find("cy=\"", at) + 4;
    return std::stod(svg.substr(cy, svg.find('"', cy) - cy));
  };
  const double y02 = y_of_circle(0), y05 = y_of_circle(1), y40 = y_of_circle(2);
  EXPECT_GT(y02, y05);
  EXPECT_GT(y05, y40);
}

}  // namespace
}  // namespace dfbench::report::svg
