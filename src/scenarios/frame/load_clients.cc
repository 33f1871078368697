#include "scenarios/frame/load_clients.h"

#include "core/cpu_share.h"

namespace dfbench::scenarios {

std::vector<drivers::LoadClient> LoadClients(const providers::Fleet& fleet, int processes) {
  std::vector<drivers::LoadClient> clients;
  const int n = std::max(processes, 1);
  clients.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    clients.push_back({.host = fleet.client.get(),
                       .cpus = core::CpuShare(fleet.client_cpus, i, n),
                       .name = n == 1 ? "client" : "process " + std::to_string(i + 1)});
  }
  return clients;
}

core::Result<results::TrialResult> RunPass(drivers::Driver& driver,
                                           const std::vector<drivers::LoadClient>& clients,
                                           const drivers::Target& target, const core::Load& load,
                                           const core::Pass& pass,
                                           const std::filesystem::path& raw_report) {
  if (clients.size() == 1) {
    return driver.Run(*clients[0].host, target, load, pass, clients[0].cpus, raw_report);
  }
  return drivers::RunSplit(driver, clients, target, load, pass, raw_report);
}

}  // namespace dfbench::scenarios
