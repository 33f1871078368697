#include "drivers/external_tool_driver.h"

namespace dfbench::drivers {

core::Result<results::TrialResult> ParseToolReport(const ToolOutput& output,
                                                   const core::Pass& pass) {
  auto trial = ParseLoadReport(output.report, ReportOptionsFor(pass));
  if (!trial && !output.report_path.empty()) {
    return tl::unexpected(core::WithContext(trial.error(), output.report_path));
  }
  return trial;
}

core::Status ExternalToolDriver::Prepare(hosts::Host& client) {
  auto found = ResolveTool(client, binary_, spec_.program, spec_.how_to_provide);
  if (!found) return tl::unexpected(found.error());
  resolved_ = *found;
  return core::Ok();
}

core::Result<results::TrialResult> ExternalToolDriver::Run(
    hosts::Host& client, const Target& target, const core::Load& load, const core::Pass& pass,
    const std::vector<int>& cpus, const std::filesystem::path& raw_report) {
  if (resolved_.empty()) {
    if (auto st = Prepare(client); !st) return tl::unexpected(st.error());
  }
  auto report = ScratchReportPath(client, spec_.program);
  if (!report) return tl::unexpected(report.error());
  auto args = spec_.build_args(resolved_, target, load, pass, *report);
  if (!args) return tl::unexpected(args.error());
  const ToolReportParser parse = spec_.parse_report;
  ToolPass tool_pass{
      .tool = spec_.program,
      .argv = std::move(*args),
      .remote_report = *report,
      .cpus = cpus,
      .timeout = PassTimeout(pass),
      .retry = spec_.retry,
      .parse = [parse, pass](const ToolOutput& output) { return parse(output, pass); }};
  return RunToolPass(client, tool_pass, raw_report);
}

}  // namespace dfbench::drivers
