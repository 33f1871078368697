#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "results/number_format.h"

namespace dfbench::report::svg {

using results::Fixed;
using results::ShortCount;
namespace {

constexpr double kLeft = 64;
constexpr double kRight = 16;
constexpr double kTop = 68;
constexpr double kBottom = 40;
constexpr const char* kTextColor = "#374151";
constexpr const char* kMutedColor = "#6b7280";
constexpr const char* kGridColor = "#e5e7eb";

// Coordinates with one decimal: enough for a screen, short markup.
std::string N(double v) {
  return core::Format("{:.1f}", v);
}

// Roughly how wide a text is at `font_px` (average glyph width ~0.6 em).
double TextWidth(std::string_view text, double font_px) {
  size_t chars = 0;
  for (char c : text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return static_cast<double>(chars) * font_px * 0.6;
}

// `text` cut to about `max_px` wide at `font_px`, with an ellipsis.
std::string Fit(const std::string& text, double max_px, double font_px) {
  if (TextWidth(text, font_px) <= max_px) return text;
  std::string out;
  for (char c : text) {
    if (TextWidth(out + "..", font_px) > max_px && (static_cast<unsigned char>(c) & 0xC0) != 0x80)
      break;
    out += c;
  }
  return out + "…";
}

std::string Open(const char* kind, int width, int height, const std::string& title) {
  return core::Format(
      "<svg class=\"chart {}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\" font-family=\"system-ui, "
      "-apple-system, 'Segoe UI', Roboto, sans-serif\">\n<title>{}</title>\n",
      kind, width, height, width, height, Escape(title), Escape(title));
}

std::string Title(const std::string& title) {
  return core::Format(
      "<text class=\"chart-title\" x=\"12\" y=\"22\" font-size=\"14\" font-weight=\"600\" "
      "fill=\"{}\">{}</text>\n",
      kTextColor, Escape(title));
}

struct LegendItem {
  std::string name;
  std::string color;
  double opacity = 1;
};

std::string Legend(const std::vector<LegendItem>& items, double width) {
  std::string out = "<g class=\"legend\">\n";
  double x = 12;
  double y = 36;
  for (const auto& item : items) {
    const double w = 16 + TextWidth(item.name, 11) + 14;
    if (x + w > width - 8 && x > 12) {
      x = 12;
      y += 14;
    }
    out += core::Format(
        "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" rx=\"2\" fill=\"{}\" "
        "fill-opacity=\"{}\"/><text class=\"legend-label\" x=\"{}\" y=\"{}\" font-size=\"11\" "
        "fill=\"{}\">{}</text>\n",
        N(x), N(y), Escape(item.color), item.opacity, N(x + 14), N(y + 9), kTextColor,
        Escape(item.name));
    x += w;
  }
  return out + "</g>\n";
}

// Horizontal grid lines with labels at the left, and the unit above them.
// A y tick: where it is drawn and what it says.
struct YTick {
  double y = 0;
  std::string label;
};

// Ticks 0..ticks.back() spread linearly between `bottom` and `top`.
std::vector<YTick> LinearTicks(const std::vector<double>& ticks, double top, double bottom) {
  const double max = ticks.back();
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
  std::vector<YTick> out;
  out.reserve(ticks.size());
  for (double t : ticks) out.push_back({bottom - (bottom - top) * (t / max), TickLabel(t, step)});
  return out;
}

std::string YAxis(const std::vector<YTick>& ticks, double top, double right,
                  const std::string& unit) {
  std::string out = "<g class=\"y-axis\">\n";
  for (const auto& t : ticks) {
    out += core::Format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" fill=\"{}\">{}</text>\n",
        N(kLeft), N(t.y), N(right), N(t.y), kGridColor, N(kLeft - 6), N(t.y + 3.5), kMutedColor,
        Escape(t.label));
  }
  if (!unit.empty()) {
    out += core::Format(
        "<text class=\"unit\" x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" "
        "fill=\"{}\">{}</text>\n",
        N(kLeft - 6), N(top - 12), kMutedColor, Escape(unit));
  }
  return out + "</g>\n";
}

// How a line chart places y values: linear from 0, or by decades.
struct YScale {
  bool log = false;
  double top_value = 1;              // linear: the value at the top
  double low_exp = 0, high_exp = 1;  // log: decades at the bottom and the top
  double top = 0, bottom = 0;
  std::vector<YTick> ticks;

  double Of(double y) const {
    if (!log) return bottom - (bottom - top) * (std::max(y, 0.0) / top_value);
    const double e = std::log10(std::max(y, std::pow(10.0, low_exp)));
    return bottom - (bottom - top) * ((e - low_exp) / (high_exp - low_exp));
  }
};

YScale LinearScale(double y_max, double top, double bottom) {
  const auto ticks = NiceTicks(y_max);
  return {.top_value = ticks.back(),
          .top = top,
          .bottom = bottom,
          .ticks = LinearTicks(ticks, top, bottom)};
}

// Decades covering every positive value of the series and the levels; a tick per decade.
YScale LogScale(const LineChart& chart, double top, double bottom) {
  double lo = 0, hi = 0;
  auto take = [&](double y) {
    if (!(y > 0) || !std::isfinite(y)) return;
    lo = lo == 0 ? y : std::min(lo, y);
    hi = std::max(hi, y);
  };
  for (const auto& s : chart.series) {
    for (const auto& p : s.points) take(p.y);
  }
  for (const auto& l : chart.levels) take(l.y);
  YScale scale{.log = true, .top = top, .bottom = bottom};
  if (hi == 0) lo = hi = 1;
  scale.low_exp = std::floor(std::log10(lo));
  scale.high_exp = std::max(std::ceil(std::log10(hi)), scale.low_exp + 1);
  for (double e = scale.low_exp; e <= scale.high_exp; ++e) {
    const double v = std::pow(10.0, e);
    scale.ticks.push_back({scale.Of(v), TickLabel(v, v)});
  }
  return scale;
}

// How a dashed guide across the plot looks: a vertical marker or a horizontal level.
struct GuideStyle {
  const char* kind;  // the class of its group, and of its line and label
  const char* stroke;
  const char* stroke_width;
  const char* dash;
  const char* label_color;
};
constexpr GuideStyle kMarkerStyle{"marker", "#f59e0b", "1.5", "5 4", "#b45309"};
constexpr GuideStyle kLevelStyle{"level", "#dc2626", "1", "2 3", "#b91c1c"};

// A guide line from `from` to `to`, with `label` at `at`, anchored at its `anchor`.
std::string Guide(const GuideStyle& style, LinePoint from, LinePoint to, LinePoint at,
                  const char* anchor, const std::string& label) {
  return core::Format(
      "<g class=\"{0}\"><line class=\"{0}-line\" x1=\"{1}\" y1=\"{2}\" x2=\"{3}\" y2=\"{4}\" "
      "stroke=\"{5}\" stroke-width=\"{6}\" stroke-dasharray=\"{7}\"/>"
      "<text class=\"{0}-label\" x=\"{8}\" y=\"{9}\" font-size=\"10\" fill=\"{10}\" "
      "text-anchor=\"{11}\">{12}</text></g>\n",
      style.kind, N(from.x), N(from.y), N(to.x), N(to.y), style.stroke, style.stroke_width,
      style.dash, N(at.x), N(at.y), style.label_color, anchor, Escape(label));
}

std::string NoData(std::string out, int width, int height) {
  out += core::Format(
      "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{}\">no data</text>\n"
      "</svg>\n",
      width / 2, height / 2, kMutedColor);
  return out;
}

}  // namespace

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::vector<double> NiceTicks(double max, int target) {
  if (!std::isfinite(max) || max <= 0) return {0, 1};
  target = std::max(target, 1);
  const double raw = max / target;
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  double step = 10 * magnitude;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  }
  std::vector<double> ticks;
  for (int i = 0;; ++i) {
    const double t = step * i;
    ticks.push_back(t);
    // Relative slack: max itself may sit a rounding error above a tick.
    if (t >= max * (1 - 1e-12)) break;
  }
  return ticks;
}

std::string TickLabel(double v, double step) {
  if (v == 0) return "0";
  if (std::fabs(v) >= 10000) {
    // "50.0k" -> "50k", "1.50M" -> "1.5M": round ticks need no trailing zeros.
    std::string out = ShortCount(v);
    const char suffix = out.back();
    out.pop_back();
    if (out.find('.') != std::string::npos) {
      while (out.back() == '0') out.pop_back();
      if (out.back() == '.') out.pop_back();
    }
    return out + suffix;
  }
  int decimals = 0;
  for (double s = step; decimals < 6 && std::fabs(s - std::round(s)) > 1e-9; s *= 10) ++decimals;
  std::string out = Fixed(v, decimals);
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

std::string RenderBarChart(const BarChart& chart) {
  std::string out = Open("bar-chart", chart.width, chart.height, chart.title);
  out += Title(chart.title);
  if (chart.categories.empty() || chart.series.empty()) {
    return NoData(std::move(out), chart.width, chart.height);
  }
  std::vector<LegendItem> legend;
  double max = 0;
  for (const auto& s : chart.series) {
    legend.push_back({s.name, s.color, s.opacity});
    for (const auto& b : s.bars) {
      if (!b.present) continue;
      max = std::max({max, b.value, b.high.value_or(0)});
    }
  }
  out += Legend(legend, chart.width);
  const double right = chart.width - kRight;
  const double bottom = chart.height - kBottom;
  const auto ticks = NiceTicks(max);
  const double y_max = ticks.back();
  auto y_of = [&](double v) { return bottom - (bottom - kTop) * (std::max(v, 0.0) / y_max); };
  out += YAxis(LinearTicks(ticks, kTop, bottom), kTop, right, chart.unit);

  const double band = (right - kLeft) / static_cast<double>(chart.categories.size());
  const double group = band * 0.76;
  const double bar_w = group / static_cast<double>(chart.series.size());
  out += "<g class=\"bars\">\n";
  for (size_t ci = 0; ci < chart.categories.size(); ++ci) {
    const double x0 = kLeft + band * static_cast<double>(ci) + (band - group) / 2;
    for (size_t si = 0; si < chart.series.size(); ++si) {
      const BarSeries& s = chart.series[si];
      if (ci >= s.bars.size() || !s.bars[ci].present) continue;
      const Bar& b = s.bars[ci];
      const std::string& color = ci < s.bar_colors.size() ? s.bar_colors[ci] : s.color;
      const double x = x0 + bar_w * static_cast<double>(si) + 1.5;
      const double w = std::max(bar_w - 3, 1.0);
      const double y = y_of(b.value);
      out += core::Format(
          "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" fill=\"{}\" "
          "fill-opacity=\"{}\"><title>{} · {}: {}</title></rect>\n",
          N(x), N(y), N(w), N(bottom - y), Escape(color), s.opacity, Escape(s.name),
          Escape(chart.categories[ci]),
          Escape(b.label.empty() ? core::Format("{}", b.value) : b.label));
      double label_y = y;
      if (b.low && b.high) {
        const double cx = x + w / 2;
        const double cap = std::min(w * 0.25, 8.0);
        const double y_lo = y_of(*b.low);
        const double y_hi = y_of(*b.high);
        out += core::Format(
            "<g class=\"whisker\" stroke=\"#111827\" stroke-width=\"1.2\"><line x1=\"{0}\" "
            "y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/><line x1=\"{3}\" y1=\"{1}\" x2=\"{4}\" "
            "y2=\"{1}\"/><line x1=\"{3}\" y1=\"{2}\" x2=\"{4}\" y2=\"{2}\"/></g>\n",
            N(cx), N(y_lo), N(y_hi), N(cx - cap), N(cx + cap));
        label_y = std::min(label_y, y_hi);
      }
      if (!b.label.empty() && TextWidth(b.label, 10) <= bar_w + 6) {
        out += core::Format(
            "<text class=\"value-label\" x=\"{}\" y=\"{}\" font-size=\"10\" "
            "text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
            N(x + w / 2), N(label_y - 4), kTextColor, Escape(b.label));
      }
    }
    out += core::Format(
        "<text class=\"category\" x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" "
        "fill=\"{}\">{}</text>\n",
        N(kLeft + band * (static_cast<double>(ci) + 0.5)), N(bottom + 16), kTextColor,
        Escape(Fit(chart.categories[ci], band - 4, 11)));
  }
  out += core::Format("</g>\n<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#9ca3af\"/>\n",
                      N(kLeft), N(bottom), N(right), N(bottom));
  return out + "</svg>\n";
}

std::string RenderLineChart(const LineChart& chart) {
  std::string out = Open("line-chart", chart.width, chart.height, chart.title);
  out += Title(chart.title);
  double x_max = 0;
  double y_max = 0;
  bool any = false;
  std::vector<LegendItem> legend;
  for (const auto& s : chart.series) {
    legend.push_back({s.name, s.color, 1});
    for (const auto& p : s.points) {
      x_max = std::max(x_max, p.x);
      y_max = std::max(y_max, p.y);
      any = true;
    }
  }
  if (!any) return NoData(std::move(out), chart.width, chart.height);
  for (const auto& m : chart.markers) x_max = std::max(x_max, m.x);
  for (const auto& l : chart.levels) y_max = std::max(y_max, l.y);
  out += Legend(legend, chart.width);
  const double right = chart.width - kRight;
  const double bottom = chart.height - kBottom;
  const auto x_ticks = NiceTicks(x_max, 8);
  const double x_top = x_ticks.back();
  auto x_of = [&](double x) { return kLeft + (right - kLeft) * (std::max(x, 0.0) / x_top); };
  const YScale y_scale =
      chart.log_y ? LogScale(chart, kTop, bottom) : LinearScale(y_max, kTop, bottom);
  auto y_of = [&](double y) { return y_scale.Of(y); };
  out += YAxis(y_scale.ticks, kTop, right, chart.y_unit);
  out += "<g class=\"x-axis\">\n";
  const double x_step = x_ticks.size() > 1 ? x_ticks[1] - x_ticks[0] : 1;
  for (double t : x_ticks) {
    out += core::Format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#9ca3af\"/>"
        "<text x=\"{0}\" y=\"{3}\" font-size=\"10\" text-anchor=\"middle\" "
        "fill=\"{4}\">{5}</text>\n",
        N(x_of(t)), N(bottom), N(bottom + 4), N(bottom + 15), kMutedColor,
        Escape(TickLabel(t, x_step)));
  }
  out += core::Format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#9ca3af\"/>\n"
      "<text class=\"unit\" x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" "
      "fill=\"{}\">{}</text>\n</g>\n",
      N(kLeft), N(bottom), N(right), N(bottom), N(right), N(bottom + 30), kMutedColor,
      Escape(chart.x_unit));

  for (size_t k = 0; k < chart.markers.size(); ++k) {
    const double x = x_of(chart.markers[k].x);
    const bool near_right = x > right - 120;
    out += Guide(kMarkerStyle, {x, kTop - 4}, {x, bottom},
                 {near_right ? x - 4 : x + 4, kTop + 8 + 12 * static_cast<double>(k)},
                 near_right ? "end" : "start", chart.markers[k].label);
  }
  for (const auto& level : chart.levels) {
    const double y = y_of(level.y);
    out += Guide(kLevelStyle, {kLeft, y}, {right, y}, {right - 2, y - 3}, "end", level.label);
  }
  for (const auto& s : chart.series) {
    if (s.points.empty()) continue;
    std::string d;
    for (const auto& p : s.points) {
      d += (d.empty() ? "M" : " L") + N(x_of(p.x)) + " " + N(y_of(p.y));
    }
    out += core::Format(
        "<path class=\"series-line\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
        "stroke-linejoin=\"round\"><title>{}</title></path>\n",
        d, Escape(s.color), Escape(s.name));
    if (s.points.size() == 1 || s.dots) {
      for (const auto& p : s.points) {
        out += core::Format("<circle class=\"point\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>\n",
                            N(x_of(p.x)), N(y_of(p.y)), Escape(s.color));
      }
    }
  }
  return out + "</svg>\n";
}

}  // namespace dfbench::report::svg
