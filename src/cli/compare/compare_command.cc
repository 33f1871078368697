#include <cstdio>

#include "cli/commands.h"
#include "cli/compare/compare_flags.h"
#include "core/log.h"
#include "core/standard_output.h"

namespace dfbench::cli {
namespace {

int RunCompare(const CompareFlags& f) {
  const report::CompareOptions options = ToCompareOptions(f);
  const auto baseline = OrExit(report::LoadResultDocument(f.baseline));
  const auto candidate = OrExit(report::LoadResultDocument(f.candidate));
  const auto comparison = OrExit(report::Compare(baseline, candidate, options));
  const std::string out = f.format == "json" ? report::RenderComparisonJson(comparison)
                                             : report::RenderComparisonTable(comparison);
  core::WriteStdout(out);
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
  AddFlagsCommand(sub, action, &AddCompareFlags, &RunCompare);
}

}  // namespace dfbench::cli
