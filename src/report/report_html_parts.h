// Building blocks shared by the HTML report's renderers (report_html.cc, report_compare.cc).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/compare.h"
#include "report/result_document.h"
#include "report/svg_chart.h"

namespace dfbench::report::html {

// HTML-escaped text.
inline std::string H(std::string_view text) {
  return svg::Escape(text);
}

// A small round swatch of `color` before a name.
inline std::string Dot(const std::string& color) {
  return "<span class=\"dot\" style=\"background:" + H(color) + "\"></span>";
}

// The engines named in `docs`, in first-use order (for stable colours).
std::vector<std::string> EngineNames(const std::vector<ResultDocument>& docs);

// A colour per replication case position.
std::string CaseColor(size_t index);

// <span class="badge verdict-…">label</span> for a compared metric.
std::string VerdictBadge(const MetricDelta& d);

// The comparison section of `baseline` vs `candidate` (both of the same shape).
std::string RenderComparisonSection(const ResultDocument& baseline, const ResultDocument& candidate,
                                    const CompareOptions& options,
                                    const std::vector<std::string>& engines);

}  // namespace dfbench::report::html
