#include "scenarios/frame/background_load.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "core/files.h"
#include "core/format.h"
#include "drivers/builtin_driver.h"
#include "drivers/load_report.h"
#include "drivers/tool_runner.h"
#include "hosts/ssh_command.h"

namespace dfbench::scenarios {

namespace {

// Long enough for the generator to write its report after SIGTERM.
constexpr std::chrono::seconds kStopGrace{30};

}  // namespace

core::Result<BackgroundLoad> BackgroundLoad::Start(hosts::Host& client,
                                                   const drivers::Target& target,
                                                   const core::Load& load, const core::Pass& pass,
                                                   const std::vector<int>& cpus) {
  auto binary = client.DfbenchBinary();
  if (!binary) return tl::unexpected(binary.error());
  auto report = drivers::ScratchReportPath(client, "loadgen");
  if (!report) return tl::unexpected(report.error());
  return StartProgram(
      client, drivers::BuiltinDriver::BuildBackgroundArgs(*binary, target, load, pass, *report),
      *report, cpus);
}

core::Result<BackgroundLoad> BackgroundLoad::StartProgram(hosts::Host& client,
                                                          const std::vector<std::string>& argv,
                                                          std::string report,
                                                          const std::vector<int>& cpus) {
  auto daemon = client.StartDaemon(
      {.argv = argv, .log_path = report + ".log", .cpus = cpus, .working_dir = ""});
  if (!daemon) return tl::unexpected(daemon.error());
  return BackgroundLoad(&client, std::move(*daemon), std::move(report),
                        hosts::ShellJoinForDisplay(argv));
}

BackgroundLoad::BackgroundLoad(BackgroundLoad&& other) noexcept
    : client_(std::exchange(other.client_, nullptr)),
      daemon_(std::move(other.daemon_)),
      report_(std::move(other.report_)),
      args_(std::move(other.args_)) {}

BackgroundLoad::~BackgroundLoad() {
  if (client_ != nullptr) (void)client_->StopDaemon(daemon_, kStopGrace);
}

core::Result<LoadOutcome> BackgroundLoad::Finish(const std::filesystem::path& raw_report) {
  const bool was_alive = client_->DaemonAlive(daemon_);
  if (auto st = client_->StopDaemon(daemon_, kStopGrace); !st) return tl::unexpected(st.error());
  auto fetched = client_->Fetch(report_, raw_report);
  if (!fetched) {
    const std::string log = client_->ReadTail(daemon_.log_path, 2000);
    return core::Fail(core::ErrorKind::kFailure,
                      core::Format("the load generator {} no report{}",
                                   was_alive ? "left" : "ended early and left",
                                   log.empty() ? std::string() : ": " + log));
  }
  auto text = core::ReadFile(raw_report);
  if (!text) return tl::unexpected(text.error());
  auto series = SeriesFromReport(*text);
  if (!series) return tl::unexpected(series.error());
  auto totals = drivers::ParseLoadReport(*text);
  if (!totals) return tl::unexpected(totals.error());
  return LoadOutcome{.series = std::move(*series), .ops = totals->ops, .errors = totals->errors};
}

core::Result<std::vector<results::RepSample>> SeriesFromReport(const std::string& report_json) {
  auto j = nlohmann::json::parse(report_json, nullptr, /*allow_exceptions=*/false);
  const nlohmann::json::json_pointer where("/ALL STATS/Totals/Time-Serie");
  if (j.is_discarded() || !j.contains(where) || !j.at(where).is_object()) {
    return core::Fail(core::ErrorKind::kFailure, "the load report has no per-second series");
  }
  const nlohmann::json& series = j.at(where);
  std::vector<results::RepSample> samples;
  for (size_t s = 0;; ++s) {
    auto it = series.find(std::to_string(s));
    if (it == series.end()) break;
    results::RepSample sample{.t_sec = static_cast<double>(s + 1)};
    sample.rps = it->value("Count", 0.0);
    sample.p99_us = it->value("p99.00", 0.0) * 1000;
    samples.push_back(sample);
  }
  return samples;
}

}  // namespace dfbench::scenarios
