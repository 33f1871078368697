#include "scenarios/frame/load_clients.h"

#include <charconv>
#include <chrono>

#include "core/cpu_share.h"
#include "core/text.h"
#include "core/time_format.h"

namespace dfbench::scenarios {

core::Result<int64_t> ClockOffsetUs(hosts::Host& host) {
  const int64_t before = core::NowEpochUs();
  auto out = host.Run({.argv = {"date", "+%s%N"}, .timeout = std::chrono::seconds(10)});
  const int64_t after = core::NowEpochUs();
  if (!out) return tl::unexpected(out.error());
  int64_t ns = 0;
  const std::string text = core::Trim(out->out);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ns);
  if (!out->status.ok() || ec != std::errc() || end != text.data() + text.size()) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      host.Name() + ": cannot read its clock (date +%s%N said \"" + text + "\")");
  }
  return ns / 1000 - (before + after) / 2;
}

core::Result<std::vector<drivers::LoadClient>> LoadClients(const providers::Fleet& fleet,
                                                           int processes) {
  std::vector<std::shared_ptr<hosts::Host>> hosts = fleet.clients;
  if (hosts.empty()) hosts.push_back(fleet.client);
  const int n = std::max(processes, 1);
  std::vector<drivers::LoadClient> clients;
  clients.reserve(hosts.size() * static_cast<size_t>(n));
  for (size_t h = 0; h < hosts.size(); ++h) {
    int64_t offset = 0;
    if (hosts.size() > 1) {
      auto measured = ClockOffsetUs(*hosts[h]);
      if (!measured) return tl::unexpected(measured.error());
      offset = *measured;
    }
    const std::string role = core::Role::Client(static_cast<int>(h)).Name();
    for (int i = 0; i < n; ++i) {
      clients.push_back(
          {.host = hosts[h].get(),
           // Pinning is the local provider's split; remote clients run on all their CPUs.
           .cpus = hosts.size() == 1 ? core::CpuShare(fleet.client_cpus, i, n) : std::vector<int>{},
           .name = n == 1 ? role : role + " process " + std::to_string(i + 1),
           .clock_offset_us = offset});
    }
  }
  return clients;
}

core::Pass WithLiveMetrics(core::Pass pass, const core::LiveMetrics& metrics,
                           const std::filesystem::path& raw_report) {
  pass.live_metrics = metrics;
  if (metrics.Enabled()) pass.live_metrics.run_label = raw_report.stem().string();
  return pass;
}

core::Result<results::TrialResult> RunPass(const BenchOptions& o, const providers::Fleet& fleet,
                                           const drivers::Target& target, const core::Load& load,
                                           const core::Pass& asked,
                                           const std::filesystem::path& raw_report) {
  drivers::Driver& driver = *o.driver;
  const core::Pass pass = WithLiveMetrics(asked, o.live_metrics, raw_report);
  auto found = LoadClients(fleet, o.loadgen_processes);
  if (!found) return tl::unexpected(found.error());
  const std::vector<drivers::LoadClient>& clients = *found;
  if (clients.size() == 1) {
    auto trial = driver.Run(*clients[0].host, target, load, pass, clients[0].cpus, raw_report);
    if (trial) drivers::WriteHdrFilesOf(raw_report, clients[0].name + " HDR latency histogram");
    return trial;
  }
  return drivers::RunSplit(driver, clients, target, load, pass, raw_report);
}

}  // namespace dfbench::scenarios
