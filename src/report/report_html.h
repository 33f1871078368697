// `dfbench report`: one self-contained HTML page (inline stylesheet and SVG charts, no scripts,
// no external resources) describing result files and, for files of the same shape, how each
// later file compares with the first.
#pragma once

#include <string>
#include <vector>

#include "report/compare.h"
#include "report/result_document.h"

namespace dfbench::report {

struct ReportOptions {
  CompareOptions compare;    // threshold and significance of the comparison sections
  std::string generated_at;  // shown in the footer, e.g. "2026-04-08T14:32:17Z"
  std::string tool_version;  // shown in the footer, e.g. "dfbench v0.1.0 (commit ...)"
};

// The page for `docs`, in order: a section per file (configuration, hosts, tables, charts),
// then, per shape with two files or more, the comparison of each later file with the first.
// Text taken from the files is escaped.
std::string RenderHtmlReport(const std::vector<ResultDocument>& docs, const ReportOptions& options);

// A stable colour per engine: dragonfly, redis, valkey and memcached have their own; other
// names get one of a fixed palette by their position in `known` (first use order).
std::string EngineColor(const std::string& engine, const std::vector<std::string>& known = {});

}  // namespace dfbench::report
