#include <cstdio>

#include "cli/commands.h"
#include "cli/loadgen/loadgen_flags.h"
#include "core/files.h"
#include "core/standard_output.h"
#include "loadgen/loadgen.h"
#include "loadgen/report.h"

namespace dfbench::cli {
namespace {

int RunLoadgen(const LoadgenOptions& options) {
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
  // The server went away or went silent: its figures are not a full run's (exit 5, as for a
  // server that cannot be reached at all). The report above says as much.
  if (!report.ended_early.empty()) {
    char line[512];
    std::snprintf(line, sizeof(line),
                  "the run ended early: %s at %.2f s of the measured window (%.2f s); %llu "
                  "requests lost, %llu connection errors",
                  report.ended_early.c_str(), report.ended_at_sec, report.seconds(),
                  static_cast<unsigned long long>(report.lost_requests),
                  static_cast<unsigned long long>(report.connection_errors));
    ExitWith(core::ErrorKind::kEnvironment,
             config.Where() + ": " + line +
                 (report.aborted_reason.empty() ? "" : " (" + report.aborted_reason + ")"));
  }
  return 0;
}

}  // namespace

void AddLoadgen(CLI::App* sub, Action* action) {
  AddFlagsCommand(sub, action, &AddLoadgenFlags, &RunLoadgen);
}

}  // namespace dfbench::cli
