#include <filesystem>

#include "cli/commands.h"
#include "cli/compare/compare_flags.h"
#include "core/files.h"
#include "core/log.h"

namespace dfbench::cli {
namespace {

int RunReport(const ReportFlags& f) {
  const report::ReportOptions options = ToReportOptions(f);
  std::vector<report::ResultDocument> docs;
  for (const auto& file : f.files) docs.push_back(OrExit(report::LoadResultDocument(file)));
  OrExit(core::WriteOutputFile(f.output, report::RenderHtmlReport(docs, options)));
  std::error_code ec;
  const auto shown = std::filesystem::absolute(f.output, ec);
  core::Note("report: " + (ec ? f.output : shown.string()));
  return 0;
}

}  // namespace

void AddReport(CLI::App* sub, Action* action) {
  AddFlagsCommand(sub, action, &AddReportFlags, &RunReport);
}

}  // namespace dfbench::cli
