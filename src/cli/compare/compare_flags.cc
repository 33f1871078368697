#include "cli/compare/compare_flags.h"

#include <cmath>

#include "core/files.h"
#include "core/time_format.h"
#include "core/version.h"

namespace dfbench::cli {
namespace {

report::CompareOptions ToComparison(double regression_pct, bool require_significance) {
  if (!std::isfinite(regression_pct) || regression_pct < 0) {
    ExitWith(core::ErrorKind::kUsage, "--regression-pct must be a non-negative number");
  }
  return {.regression_pct = regression_pct,
          .significance = require_significance ? report::Significance::kOutsideNoise
                                               : report::Significance::kThresholdOnly};
}

}  // namespace

void AddCompareFlags(CLI::App* sub, CompareFlags* f) {
  sub->add_option("baseline", f->baseline, "Result file (or run directory) to compare against")
      ->required();
  sub->add_option("candidate", f->candidate, "Result file (or run directory) to judge")->required();
  sub->add_option("--regression-pct", f->regression_pct,
                  "A metric worse than the baseline by more than this percentage is a "
                  "regression (exit 1)")
      ->capture_default_str();
  AddChoiceFlag(sub, "--format", &f->format, {"table", "json"},
                "table or json (a single JSON payload on stdout)");
  AddBoolFlag(sub, "--require-significance", &f->require_significance,
              "Only count a regression when the two runs' trial spreads (min..max) do not "
              "overlap");
}

report::CompareOptions ToCompareOptions(const CompareFlags& f) {
  return ToComparison(f.regression_pct, f.require_significance);
}

void AddReportFlags(CLI::App* sub, ReportFlags* f) {
  sub->add_option("files", f->files, "Result files (or run directories) of any shape")->required();
  sub->add_option("-o,--output", f->output, "Where to write the HTML page")->capture_default_str();
  sub->add_option("--regression-pct", f->regression_pct,
                  "Threshold of the comparison sections, as for 'dfbench compare'")
      ->capture_default_str();
  AddBoolFlag(sub, "--require-significance", &f->require_significance,
              "Comparison sections count only regressions outside the trials' spread");
}

report::ReportOptions ToReportOptions(const ReportFlags& f) {
  report::CompareOptions compare = ToComparison(f.regression_pct, f.require_significance);
  OrExit(core::ResolveOutputPath(f.output));
  return {
      .compare = compare, .generated_at = core::NowIso8601(), .tool_version = core::VersionLine()};
}

}  // namespace dfbench::cli
