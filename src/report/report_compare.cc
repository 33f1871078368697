// The comparison sections of the HTML report: the verdicts of `dfbench compare`, side by side.
#include <algorithm>

#include "core/format.h"
#include "report/report_html.h"
#include "report/report_html_parts.h"
#include "results/number_format.h"

namespace dfbench::report::html {

using results::Fixed;
using results::ShortCount;
namespace {

constexpr const char* kLegendColor = "#6b7280";
constexpr double kBaselineOpacity = 0.4;

bool IsCount(const std::string& metric) {
  return metric == "throughput" || metric == "median_rps" || metric == kMaxRateInSlo;
}

svg::Bar BarOf(const MetricDelta& d, const Measurement& m) {
  svg::Bar b;
  b.present = m.present;
  b.value = m.value;
  if (m.max > m.min) {
    b.low = m.min;
    b.high = m.max;
  }
  b.label = IsCount(d.metric) ? ShortCount(m.value) : FormatMetricValue(d.metric, m.value);
  return b;
}

const MetricDelta* Find(const GroupComparison& g, const std::string& metric) {
  for (const auto& m : g.metrics) {
    if (m.metric == metric) return &m;
  }
  return nullptr;
}

// Baseline (light) and candidate (solid) bars of one metric for every group.
std::string SideBySide(const Comparison& c, const std::string& metric, const std::string& title,
                       const std::string& unit, const std::vector<std::string>& colors) {
  svg::BarChart chart{.title = title, .unit = unit};
  svg::BarSeries base{
      .name = "baseline " + c.baseline_run_id, .color = kLegendColor, .opacity = kBaselineOpacity};
  svg::BarSeries cand{.name = "candidate " + c.candidate_run_id, .color = kLegendColor};
  for (size_t i = 0; i < c.groups.size(); ++i) {
    const MetricDelta* d = Find(c.groups[i], metric);
    if (d == nullptr) continue;
    chart.categories.push_back(c.groups[i].Label());
    base.bars.push_back(BarOf(*d, d->baseline));
    cand.bars.push_back(BarOf(*d, d->candidate));
    base.bar_colors.push_back(colors[i]);
    cand.bar_colors.push_back(colors[i]);
  }
  chart.series = {std::move(base), std::move(cand)};
  return "<div class=\"card\">" + svg::RenderBarChart(chart) + "</div>\n";
}

const results::ReplicationCase* FindCase(const results::ReplicationRunResults& r,
                                         const std::string& name) {
  for (const auto& c : r.cases) {
    if (results::CaseName(c) == name) return &c;
  }
  // A case of ours met a reference file's by run name (CompareReplications).
  for (const auto& c : r.cases) {
    if (c.run_name == name && results::RunNamesUnique(r)) return &c;
  }
  return nullptr;
}

enum class SeriesField { kRps, kP99 };

// rps or p99 over time of one case, baseline and candidate overlaid, with both sync points.
std::string Overlay(const results::ReplicationCase& b, const results::ReplicationCase& c,
                    const Comparison& cmp, SeriesField field, const std::string& color) {
  const bool rps = field == SeriesField::kRps;
  auto series = [rps](const results::ReplicationCase& rc, std::string name, std::string col) {
    svg::LineSeries s{.name = std::move(name), .color = std::move(col)};
    for (const auto& p : results::Timeline(rc))
      s.points.push_back({p.t_sec, rps ? p.rps : p.p99_us});
    return s;
  };
  svg::LineChart chart{
      .title = results::CaseName(b) + (rps ? " · throughput, baseline vs candidate"
                                           : " · p99 latency, baseline vs candidate"),
      .x_unit = "time (s)",
      .y_unit = rps ? "rps" : "p99 µs",
      .series = {series(b, "baseline " + cmp.baseline_run_id, "#9ca3af"),
                 series(c, "candidate " + cmp.candidate_run_id, color)}};
  if (b.sync_duration_ms > 0) {
    chart.markers.push_back({results::SustainedStartSec(b),
                             "baseline sync " + Fixed(b.sync_duration_ms / 1000, 1) + " s"});
  }
  if (c.sync_duration_ms > 0) {
    chart.markers.push_back({results::SustainedStartSec(c),
                             "candidate sync " + Fixed(c.sync_duration_ms / 1000, 1) + " s"});
  }
  return "<div class=\"card\">" + svg::RenderLineChart(chart) + "</div>\n";
}

std::string Cell(const MetricDelta& d, const Measurement& m) {
  if (!m.present) return "<td class=\"num\">-</td>";
  return "<td class=\"num\">" + H(FormatMetricValue(d.metric, m.value)) +
         "<span class=\"spread\">" + H(FormatMetricValue(d.metric, m.min)) + ".." +
         H(FormatMetricValue(d.metric, m.max)) + "</span></td>";
}

std::string VerdictTable(const Comparison& c, const std::vector<std::string>& colors) {
  std::string out =
      "<table class=\"compare\"><thead><tr><th>" +
      std::string(c.shape == Shape::kReplication ? "case" : "engine") +
      "</th><th>metric</th><th class=\"num\">baseline</th><th class=\"num\">candidate</th><th "
      "class=\"num\">delta</th><th>verdict</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < c.groups.size(); ++i) {
    const GroupComparison& g = c.groups[i];
    for (const auto& m : g.metrics) {
      out += "<tr><td class=\"name\">" + Dot(colors[i]) + H(g.Label()) + "</td><td>" +
             H(MetricLabel(m.metric)) + "</td>" + Cell(m, m.baseline) + Cell(m, m.candidate) +
             "<td class=\"num\">" + H(FormatDelta(m)) + "</td><td>" + VerdictBadge(m) +
             "</td></tr>\n";
    }
  }
  return out + "</tbody></table>\n";
}

std::string ListItems(const std::string& title, const std::vector<std::string>& items) {
  if (items.empty()) return "";
  std::string out = "<p><b>" + H(title) + "</b></p><ul class=\"notes\">";
  for (const auto& i : items) out += "<li>" + H(i) + "</li>";
  return out + "</ul>\n";
}

}  // namespace

std::string RenderComparisonSection(const ResultDocument& baseline, const ResultDocument& candidate,
                                    const CompareOptions& options,
                                    const std::vector<std::string>& engines) {
  std::string out = "<h2><span class=\"badge shape\">comparison</span> " +
                    H(std::string(ShapeName(baseline.shape)) + " · " + baseline.RunId() + " → " +
                      candidate.RunId()) +
                    "</h2>\n<p class=\"source\">baseline " + H(baseline.source) + "<br>candidate " +
                    H(candidate.source) + "<br>regression threshold " +
                    H(core::Format("{}%", options.regression_pct)) +
                    (options.significance == Significance::kOutsideNoise
                         ? " (only changes outside the trials' spread count)"
                         : "") +
                    "</p>\n";
  auto compared = Compare(baseline, candidate, options);
  if (!compared) {
    return out +
           "<div class=\"card\"><p class=\"error\">Not compared: " + H(compared.error().message) +
           "</p></div>\n";
  }
  const Comparison& c = *compared;
  const auto regressions = c.RegressionList();
  if (regressions.empty()) {
    out += "<div class=\"verdict verdict-ok\">No metric regressed beyond " +
           H(core::Format("{}%", options.regression_pct)) + "</div>\n";
  } else {
    std::string list;
    for (const auto& r : regressions) list += (list.empty() ? "" : ", ") + r;
    out += "<div class=\"verdict verdict-regression\">Regression: " + H(list) + "</div>\n";
  }

  std::vector<std::string> colors;
  for (size_t i = 0; i < c.groups.size(); ++i) {
    colors.push_back(c.shape == Shape::kReplication ? CaseColor(i)
                                                    : EngineColor(c.groups[i].engine, engines));
  }
  out += "<div class=\"charts\">";
  if (c.shape == Shape::kReplication) {
    out += SideBySide(c, "median_rps", "Median rps per case", "rps", colors);
    out += SideBySide(c, "median_p99_us", "Median p99 per case", "µs", colors);
    for (size_t i = 0; i < c.groups.size(); ++i) {
      const results::ReplicationCase* b = FindCase(baseline.replication, c.groups[i].run_name);
      const results::ReplicationCase* k = FindCase(candidate.replication, c.groups[i].run_name);
      if (b == nullptr || k == nullptr) continue;
      out += Overlay(*b, *k, c, SeriesField::kRps, colors[i]);
      out += Overlay(*b, *k, c, SeriesField::kP99, colors[i]);
    }
  } else if (c.shape == Shape::kSweep) {
    out += SideBySide(c, kMaxRateInSlo, "Max rate within the objectives, baseline vs candidate",
                      "ops/s", colors);
  } else if (c.shape == Shape::kMemory) {
    out += SideBySide(c, "idle_bytes", "Idle memory, baseline vs candidate", "bytes", colors);
    out += SideBySide(c, "peak_bytes", "Peak memory, baseline vs candidate", "bytes", colors);
  } else {
    out += SideBySide(c, "throughput", "Throughput, baseline vs candidate", "ops/s", colors);
    out += SideBySide(c, "p99", "p99 latency, baseline vs candidate", "ms", colors);
  }
  out += "</div>\n";
  out += "<div class=\"card\"><h3>Verdicts</h3>\n" + VerdictTable(c, colors) +
         ListItems("Only in baseline", c.only_in_baseline) +
         ListItems("Only in candidate", c.only_in_candidate) +
         ListItems("Differences in what was run", c.notes) + "</div>\n";
  return out;
}

}  // namespace dfbench::report::html
