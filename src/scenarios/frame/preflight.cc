#include "scenarios/frame/preflight.h"

#include "core/format.h"

namespace dfbench::scenarios {

core::Status CheckInstalled(const state::SetupState& setup,
                            const std::vector<const engines::EngineSpec*>& engines) {
  for (const auto* spec : engines) {
    const auto* install = setup.FindEngine(spec->name);
    if (install && install->status == state::InstallStatus::kInstalled) continue;
    std::string have;
    for (const auto& e : setup.engines) {
      if (e.status == state::InstallStatus::kInstalled) have += (have.empty() ? "" : ", ") + e.name;
    }
    return core::Fail(core::ErrorKind::kUsage,
                      "engine " + spec->name + " is not installed in setup \"" + setup.id +
                          "\" (installed: " + (have.empty() ? "none" : have) + ")");
  }
  return core::Ok();
}

core::Status CheckRedisProtocol(const std::vector<const engines::EngineSpec*>& engines,
                                const std::string& refusal) {
  for (const auto* spec : engines) {
    if (spec->protocol != core::Protocol::kRedis) {
      return core::Fail(core::ErrorKind::kUsage, spec->name + refusal);
    }
  }
  return core::Ok();
}

core::Status CheckStartsEngines(const providers::Fleet& fleet, const std::string& scenario) {
  if (fleet.endpoints.empty()) return core::Ok();
  return core::Fail(core::ErrorKind::kUsage,
                    scenario +
                        " starts and restarts its engines, which an endpoint setup never "
                        "does: run, run-commands and sweep measure endpoints");
}

core::Status CheckEnginePort(providers::Fleet& fleet) {
  if (fleet.engine_port <= 0) return core::Ok();
  // Whatever listens there would take the engine's place (or make it fail).
  auto in_use = fleet.server->PortListening(fleet.engine_port);
  if (!in_use) return tl::unexpected(in_use.error());
  if (*in_use) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        core::Format("port {} on {} ({}) is in use by another program: stop it, or "
                     "create the setup with another engine port",
                     fleet.engine_port, fleet.server->Name(), fleet.server->EngineAddress()));
  }
  return core::Ok();
}

core::Status CheckRunnable(const state::SetupState& setup, providers::Fleet& fleet,
                           drivers::Driver& driver,
                           const std::vector<const engines::EngineSpec*>& engines) {
  if (auto st = CheckInstalled(setup, engines); !st) return st;
  if (auto st = driver.Prepare(*fleet.client); !st) return st;
  return CheckEnginePort(fleet);
}

}  // namespace dfbench::scenarios
