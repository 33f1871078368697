#include <cmath>
#include <filesystem>

#include "cli/commands.h"
#include "core/files.h"
#include "core/log.h"
#include "core/time_format.h"
#include "core/version.h"
#include "report/report_html.h"

namespace dfbench::cli {
namespace {

struct ReportFlags {
  std::vector<std::string> files;
  std::string output = "report.html";
  double regression_pct = 5.0;
  bool require_significance = false;
};

int RunReport(const ReportFlags& f) {
  if (!std::isfinite(f.regression_pct) || f.regression_pct < 0) {
    ExitWith(core::ErrorKind::kUsage, "--regression-pct must be a non-negative number");
  }
  OrExit(core::ResolveOutputPath(f.output));
  std::vector<report::ResultDocument> docs;
  for (const auto& file : f.files) docs.push_back(OrExit(report::LoadResultDocument(file)));
  const report::ReportOptions options{
      .compare = {.regression_pct = f.regression_pct,
                  .significance = f.require_significance ? report::Significance::kOutsideNoise
                                                         : report::Significance::kThresholdOnly},
      .generated_at = core::NowIso8601(),
      .tool_version = core::VersionLine()};
  OrExit(core::WriteOutputFile(f.output, report::RenderHtmlReport(docs, options)));
  std::error_code ec;
  const auto shown = std::filesystem::absolute(f.output, ec);
  core::Note("report: " + (ec ? f.output : shown.string()));
  return 0;
}

}  // namespace

void AddReport(CLI::App* sub, Action* action) {
  auto f = std::make_shared<ReportFlags>();
  sub->add_option("files", f->files, "Result files (or run directories) of any shape")->required();
  sub->add_option("-o,--output", f->output, "Where to write the HTML page")->capture_default_str();
  sub->add_option("--regression-pct", f->regression_pct,
                  "Threshold of the comparison sections, as for 'dfbench compare'")
      ->capture_default_str();
  AddBoolFlag(sub, "--require-significance", &f->require_significance,
              "Comparison sections count only regressions outside the trials' spread");
  sub->callback([f, action] { *action = [f] { return RunReport(*f); }; });
}

}  // namespace dfbench::cli
