// The session every benchmark scenario drives: the setup held under its lock in a working
// status, its provider and the connected fleet, and the "finish run" step that saves the run.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "drivers/driver.h"
#include "engines/endpoint_commands.h"
#include "engines/engine.h"
#include "providers/provider.h"
#include "scenarios/frame/bench_options.h"
#include "scenarios/frame/run_outcome.h"
#include "state/state.h"

namespace dfbench::scenarios {

class BenchSession {
 public:
  // Locks the setup (kLocked at once when held), loads it, checks it is "ready" (kNotFound
  // otherwise, naming the status), moves it to "benchmarking" and connects to its hosts
  // through its provider. The previous status comes back when the session goes away.
  static core::Result<std::unique_ptr<BenchSession>> Open(const std::string& id);
  // Clears the scratch files of the hosts' work directories (engine logs, load generator
  // reports: hosts::ClearScratch), whatever way the run ended; the run directory keeps what
  // its results point to.
  ~BenchSession();
  BenchSession(const BenchSession&) = delete;
  BenchSession& operator=(const BenchSession&) = delete;

  state::SetupState& setup() { return setup_; }
  providers::Provider& provider() { return *provider_; }
  providers::Fleet& fleet() { return fleet_; }

  // Before a run: checks that `driver` can run on the client host (so a missing load
  // generator stops us before anything changes), then installs each of `versions` (engine
  // name -> --<engine>_version) whose engine is among `engines` through the setup's provider
  // (the setup's engine binary, version and origin are saved; a note says a flag was ignored
  // when its engine is not run).
  // With `tuning`.tls or .acl_user, the engines must speak the Redis protocol (kUsage naming
  // one that does not); with an ACL user, the driver must be the built-in one (the others would
  // have the password on their command line); with TLS, the fleet is equipped for it
  // (providers::EquipTls).
  core::Status PrepareRun(drivers::Driver& driver,
                          const std::vector<const engines::EngineSpec*>& engines,
                          const std::map<std::string, engines::VersionSpec>& versions,
                          const engines::Tuning& tuning = {});

  // On an endpoint whose other data is not the run's (its key namespace): checks every command
  // the run sends to each of `engines` against the server's key map (engines::CheckSentCommands;
  // kUsage naming the command, before any request of the run), then records the run's prefix
  // in the setup, saved, before the first request: a command that dies before removing its
  // keys leaves them to the next command's recovery and to destroy. When the session ends the
  // recorded prefixes' keys are removed again where any are left, and forgotten once gone.
  core::Status ClaimRunKeys(const std::vector<const engines::EngineSpec*>& engines,
                            const std::vector<engines::SentCommand>& sent);

  // The last step of every scenario: saves the state (the run's entry in the history) and
  // returns the path of the run's results.json. kEnvironment when the state cannot be saved, or
  // when the run's results could not be written (the record's error, naming where they were
  // kept instead).
  core::Result<std::filesystem::path> FinishRun();

 private:
  explicit BenchSession(state::SetupLock lock) : lock_(std::move(lock)) {}
  state::SetupLock lock_;
  state::SetupState setup_;
  std::optional<state::StatusGuard> guard_;
  std::unique_ptr<providers::Provider> provider_;
  providers::Fleet fleet_;
  bool claimed_keys_ = false;  // ClaimRunKeys recorded a prefix
};

// What `run`, `quickstart` and `sweep` send: the SET:GET mix.
inline const std::vector<engines::SentCommand> kSetGetCommands = {{"SET __key__ __data__"},
                                                                  {"GET __key__"}};

// What a benchmark scenario needs before its own steps.
struct ScenarioRequest {
  std::string setup_id;
  drivers::Driver* driver = nullptr;
  std::vector<const engines::EngineSpec*> engines;
  std::map<std::string, engines::VersionSpec> versions;  // installed first (--<engine>_version)
  // How the engines are started: with TLS the fleet is equipped first (PrepareRun).
  engines::Tuning tuning;
  // Every command the run sends (ClaimRunKeys checks them on a shared endpoint).
  std::vector<engines::SentCommand> sent = kSetGetCommands;
};

// The request of a benchmark from its options.
inline ScenarioRequest RequestFor(const std::string& setup_id, const BenchOptions& options) {
  return {.setup_id = setup_id,
          .driver = options.driver,
          .engines = options.engines,
          .versions = options.versions,
          .tuning = options.tuning};
}

// The flow every benchmark scenario shares: open a session on the setup, PrepareRun, then
// `steps(session)`, the scenario's own steps returning its results, and finish the run. Returns
// what the run produced, results that could not be saved with FinishRun's error (they were
// measured, so they are still shown); an error for what stopped the run before it had results.
template <class Steps>
auto RunScenario(const ScenarioRequest& request, Steps steps) -> core::Result<
    RunOutcome<typename decltype(steps(std::declval<BenchSession&>()))::value_type>> {
  if (!request.driver) return core::Fail(core::ErrorKind::kUsage, "no load generator");
  auto session = BenchSession::Open(request.setup_id);
  if (!session) return tl::unexpected(session.error());
  if (auto st = (*session)->PrepareRun(*request.driver, request.engines, request.versions,
                                       request.tuning);
      !st) {
    return tl::unexpected(st.error());
  }
  if (auto st = (*session)->ClaimRunKeys(request.engines, request.sent); !st) {
    return tl::unexpected(st.error());
  }
  auto results = steps(**session);
  if (!results) return tl::unexpected(results.error());
  auto path = (*session)->FinishRun();
  if (!path) return {{.results = std::move(*results), .unsaved_error = path.error()}};
  return {{.results = std::move(*results), .results_path = std::move(*path)}};
}

// RunScenario for a scenario whose steps are one function of the setup, its fleet and its
// options (e.g. RunSetGet), its request made by RequestFor.
template <class Options, class Run>
auto RunScenarioOnSetup(const std::string& setup_id, const Options& options, Run run) {
  return RunScenario(RequestFor(setup_id, options), [&](BenchSession& session) {
    return run(&session.setup(), session.fleet(), options);
  });
}

}  // namespace dfbench::scenarios
