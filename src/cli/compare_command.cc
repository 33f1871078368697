#include <cmath>
#include <cstdio>

#include "cli/commands.h"
#include "core/log.h"
#include "report/compare.h"

namespace dfbench::cli {
namespace {

struct CompareFlags {
  std::string baseline;
  std::string candidate;
  double regression_pct = 5.0;
  std::string format = "table";
  bool require_significance = false;
};

int RunCompare(const CompareFlags& f) {
  if (!std::isfinite(f.regression_pct) || f.regression_pct < 0) {
    ExitWith(core::ErrorKind::kUsage, "--regression-pct must be a non-negative number");
  }
  const auto baseline = OrExit(report::LoadResultDocument(f.baseline));
  const auto candidate = OrExit(report::LoadResultDocument(f.candidate));
  const report::CompareOptions options{.regression_pct = f.regression_pct,
                                       .significance = f.require_significance
                                                           ? report::Significance::kOutsideNoise
                                                           : report::Significance::kThresholdOnly};
  const auto comparison = OrExit(report::Compare(baseline, candidate, options));
  const std::string out = f.format == "json" ? report::RenderComparisonJson(comparison)
                                             : report::RenderComparisonTable(comparison);
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!comparison.Regressed()) return 0;
  if (f.format == "json") {
    // The table names them on stdout already; with JSON, say it once on stderr too.
    std::string list;
    for (const auto& r : comparison.RegressionList()) list += (list.empty() ? "" : ", ") + r;
    core::Notef("regression beyond {}%: {}", f.regression_pct, list);
  }
  return static_cast<int>(core::ErrorKind::kFailure);
}

}  // namespace

void AddCompare(CLI::App* sub, Action* action) {
  auto f = std::make_shared<CompareFlags>();
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
  sub->callback([f, action] { *action = [f] { return RunCompare(*f); }; });
}

}  // namespace dfbench::cli
