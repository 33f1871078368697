#include <cstdio>

#include "cli/commands.h"
#include "cli/loadgen_flags.h"
#include "core/files.h"
#include "core/standard_output.h"
#include "loadgen/loadgen.h"
#include "loadgen/report.h"

namespace dfbench::cli {
namespace {

int RunLoadgen(const loadgen::Options& options) {
  const loadgen::Config config = ToLoadgenConfig(options);
  const loadgen::Report report = OrExit(loadgen::Run(config));
  core::WriteStdout(loadgen::ReportTable(report, config));
  std::fflush(stdout);
  if (!config.json_out_file.empty()) {
    OrExit(core::WriteOutputFile(config.json_out_file, loadgen::ReportJson(report, config)));
  }
  if (!config.hdr_file_prefix.empty()) {
    for (const auto& file : loadgen::HdrFiles(report, config.hdr_file_prefix)) {
      OrExit(core::WriteOutputFile(file.path, file.text));
    }
  }
  if (report.interrupted) return static_cast<int>(core::ErrorKind::kInterrupted);
  if (!report.aborted_reason.empty()) {
    ExitWith(core::ErrorKind::kFailure, "run aborted: " + report.aborted_reason);
  }
  return 0;
}

}  // namespace

void AddLoadgen(CLI::App* sub, Action* action) {
  AddFlagsCommand(sub, action, &AddLoadgenFlags, &RunLoadgen);
}

}  // namespace dfbench::cli
