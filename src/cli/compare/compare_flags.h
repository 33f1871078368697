// The flags of `compare` and `report` and the rules that turn them into their options: both
// judge regressions the same way (--regression-pct, --require-significance).
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "report/compare.h"
#include "report/report_html.h"

namespace dfbench::cli {

struct CompareFlags {
  std::string baseline;
  std::string candidate;
  double regression_pct = 5.0;
  std::string format = "table";
  bool require_significance = false;
};

// The two files, --regression-pct, --format and --require-significance.
void AddCompareFlags(CLI::App* sub, CompareFlags* flags);

// Checks --regression-pct (ExitError(kUsage)) and builds the comparison's options.
report::CompareOptions ToCompareOptions(const CompareFlags& flags);

struct ReportFlags {
  std::vector<std::string> files;
  std::string output = "report.html";
  double regression_pct = 5.0;
  bool require_significance = false;
};

// The files, -o/--output, --regression-pct and --require-significance.
void AddReportFlags(CLI::App* sub, ReportFlags* flags);

// Checks --regression-pct and that --output can be written (before any file is read; ExitError
// with one line) and builds the page's options, stamped now with this build's version.
report::ReportOptions ToReportOptions(const ReportFlags& flags);

}  // namespace dfbench::cli
