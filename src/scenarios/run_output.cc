#include "scenarios/run_output.h"

#include <cstdio>

#include "core/log.h"
#include "results/writers.h"

namespace dfbench::scenarios {

core::Result<OutputFormat> ParseOutputFormat(std::string_view name) {
  if (name == "table") return OutputFormat::kTable;
  if (name == "json") return OutputFormat::kJson;
  if (name == "csv") return OutputFormat::kCsv;
  return core::Fail(core::ErrorKind::kUsage,
                    "--output \"" + std::string(name) + "\": use table, json or csv");
}

std::string Render(const results::RunResults& r, OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson:
      return results::RenderRunJson(r);
    case OutputFormat::kCsv:
      return results::RenderRunCsv(r);
    case OutputFormat::kTable:
      break;
  }
  return results::RenderRunTable(r);
}

std::string Render(const results::CommandRunResults& r, OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson:
      return results::RenderCommandRunJson(r);
    case OutputFormat::kCsv:
      return results::RenderCommandRunCsv(r);
    case OutputFormat::kTable:
      break;
  }
  return results::RenderCommandRunTable(r);
}

int ExitCode(std::optional<results::RunStatus> run_status) {
  if (run_status == results::RunStatus::kInterrupted) {
    return static_cast<int>(core::ErrorKind::kInterrupted);
  }
  if (run_status != results::RunStatus::kCompleted) {
    core::Note("one or more engines failed; see the error column");
    return static_cast<int>(core::ErrorKind::kFailure);
  }
  return 0;
}

int Publish(const std::string& rendered, const std::filesystem::path& results_path,
            std::optional<results::RunStatus> run_status) {
  std::fwrite(rendered.data(), 1, rendered.size(), stdout);
  std::fflush(stdout);
  core::Notef("results: {}", results_path.string());
  return ExitCode(run_status);
}

}  // namespace dfbench::scenarios
