#include <csignal>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "cli/commands.h"
#include "cli/loadgen/loadgen_flags.h"
#include "cli/loadgen/loadgen_outputs.h"
#include "core/files.h"
#include "core/interrupt.h"
#include "core/standard_output.h"
#include "loadgen/loadgen.h"
#include "loadgen/report.h"

namespace dfbench::cli {
namespace {

// memtier's --show-config: the listing on stdout between two rules on stderr.
void PrintConfig(const loadgen::Config& config, const std::string& uri) {
  std::fprintf(stderr, "============== Configuration values: ==============\n");
  std::fflush(stderr);
  core::WriteStdout(ShowConfig(config, uri));
  std::fflush(stdout);
  std::fprintf(stderr, "===================================================\n");
}

// memtier's --client-stats: each client's file of a run, written whole or not at all.
void WriteClientStats(const loadgen::Report& report, const loadgen::Config& config, int run) {
  if (config.client_stats.empty()) return;
  if (config.progress != loadgen::ProgressMode::kNever) {
    std::fprintf(stderr, "[RUN %d] Writing client stats files...\n", run);
  }
  for (const auto& file : report.client_stats) OrExit(core::WriteOutputFile(file.path, file.text));
}

// memtier's --run-count: the runs one after another, each writing its HdrHistogram and client
// stats files; an interrupt or a server gone ends the series (memtier_benchmark.cpp main).
std::vector<loadgen::Report> RunSeries(const loadgen::Config& config) {
  std::vector<loadgen::Report> runs;
  for (int run = 1; run <= config.run_count; ++run) {
    runs.push_back(OrExit(loadgen::Run(config, run)));
    if (!config.hdr_file_prefix.empty()) {
      for (const auto& file : loadgen::HdrFiles(runs.back(), config.hdr_file_prefix, run)) {
        OrExit(core::WriteOutputFile(file.path, file.text));
      }
    }
    WriteClientStats(runs.back(), config, run);
    if (runs.back().interrupted || !runs.back().ended_early.empty()) break;
  }
  return runs;
}

// memtier's -o: the text report to the file, "-" (or none) for stdout; and its JSON.
void WriteReports(const std::vector<loadgen::Report>& runs, const loadgen::Config& config) {
  const std::string table = loadgen::ReportTable(runs, config);
  if (config.out_file.empty() || config.out_file == "-") {
    core::WriteStdout(table);
    std::fflush(stdout);
  } else {
    OrExit(core::WriteOutputFile(config.out_file, table));
  }
  if (!config.json_out_file.empty()) {
    OrExit(core::WriteOutputFile(config.json_out_file, loadgen::ReportJson(runs, config)));
    if (config.progress != loadgen::ProgressMode::kNever) {
      std::fprintf(stderr, "Saving JSON output file: %s\n", config.json_out_file.c_str());
      std::fprintf(stderr, "Json file closed.\n");
    }
  }
}

int RunLoadgen(const LoadgenOptions& options) {
  if (options.version) {
    core::WriteStdout(VersionText());
    return 0;
  }
  const loadgen::Config config = ToLoadgenConfig(options);
  // memtier's note of the imported keys its GETs read.
  if (config.importing() && !config.generate_keys) {
    std::fprintf(stderr, "Reading keys from %s... %zu keys read.\n", config.data_import.c_str(),
                 config.imported->size());
  }
  if (options.show_config) PrintConfig(config, options.uri);
  if (!config.json_out_file.empty()) {
    // As memtier: the JSON file is made before the run, and filled after it. A file already
    // there (an earlier report) is left whole until the new report replaces it; the path itself
    // was checked with the flags.
    std::error_code ec;
    if (!std::filesystem::exists(config.json_out_file, ec)) {
      OrExit(core::WriteOutputFile(config.json_out_file, ""));
    }
    if (config.progress != loadgen::ProgressMode::kNever) {
      std::fprintf(stderr, "Json file %s created...\n", config.json_out_file.c_str());
    }
  }
  const std::vector<loadgen::Report> runs = RunSeries(config);
  WriteReports(runs, config);
  const loadgen::Report& report = runs.back();
  if (report.interrupted) {
    // Ctrl+C stops the load and reports what ran, exit 0, as memtier does; SIGTERM and SIGHUP
    // stay interruptions (130).
    if (core::InterruptSignal() != SIGINT) return static_cast<int>(core::ErrorKind::kInterrupted);
    core::MarkInterruptHandled();
    return 0;
  }
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
