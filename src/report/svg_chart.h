// Inline SVG charts for the HTML report: grouped bars with min..max whiskers, and line charts
// with vertical markers. Self-contained markup (no scripts, no external resources); every text
// is escaped, so file contents can be passed as labels.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dfbench::report::svg {

// Text escaped for HTML and SVG, in elements and in quoted attributes: & < > " '.
std::string Escape(std::string_view text);

// Round tick values 0, step, 2·step, ... whose last is >= max (step 1, 2, 2.5 or 5 × 10^k);
// about `target` intervals. {0, 1} when max <= 0 or is not finite.
std::vector<double> NiceTicks(double max, int target = 5);

// A tick label: "0", "2.5", "250k", "1.5M".
std::string TickLabel(double v, double step);

struct Bar {
  double value = 0;
  bool present = true;              // absent bars leave a gap
  std::optional<double> low, high;  // whisker (min..max)
  std::string label;                // drawn above the bar, e.g. "546k"
};

struct BarSeries {
  std::string name;   // legend entry
  std::string color;  // CSS colour, e.g. "#dc2626"
  double opacity = 1;
  std::vector<Bar> bars;  // one per category
  // Per-bar colours overriding `color` (same length as `bars`, or empty).
  std::vector<std::string> bar_colors;
};

struct BarChart {
  std::string title;
  std::string unit;  // y axis unit, e.g. "ops/s"
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  int width = 620;
  int height = 300;
};

// <svg class="chart bar-chart">: one group of bars per category, a bar per series
// (rect.bar), whiskers (line.whisker), value labels, y grid with ticks, legend (g.legend).
std::string RenderBarChart(const BarChart& chart);

struct LinePoint {
  double x = 0;
  double y = 0;
};

struct LineSeries {
  std::string name;
  std::string color;
  std::vector<LinePoint> points;  // in x order
  bool dots = false;              // a circle.point on every point (a lone point always has one)
};

struct VerticalMarker {
  double x = 0;
  std::string label;  // e.g. "stable sync 3.4 s"
};

// A horizontal line at a y value, e.g. a latency objective.
struct HorizontalLevel {
  double y = 0;
  std::string label;  // e.g. "p99<=2ms"
};

struct LineChart {
  std::string title;
  std::string x_unit;  // e.g. "s"
  std::string y_unit;  // e.g. "rps"
  std::vector<LineSeries> series;
  std::vector<VerticalMarker> markers;
  std::vector<HorizontalLevel> levels;
  // Decades on the y axis (a tick per power of ten, values <= 0 drawn at the bottom) instead of
  // a linear axis from 0.
  bool log_y = false;
  int width = 620;
  int height = 280;
};

// <svg class="chart line-chart">: path.series-line per series (circle.point on its points when
// asked), line.marker per marker and line.level-line per level (with their labels), x and y
// axes with ticks, legend.
std::string RenderLineChart(const LineChart& chart);

}  // namespace dfbench::report::svg
