// A setup's on-disk state: ~/.dfbench/runs/<id>/state.json (relocatable with DFBENCH_HOME).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/enum_names.h"
#include "core/error.h"
#include "core/role.h"
#include "results/engine_record.h"
#include "results/schema.h"
#include "state/provider_data.h"
#include "state/provider_kind.h"
#include "state/setup_settings.h"

namespace dfbench::state {

// Lifecycle of a setup. Mutating commands move between these and restore the previous one
// on every exit path (see StatusGuard).
enum class SetupStatus {
  kProvisioning,
  kInstalling,
  kReady,
  kBenchmarking,
  kDestroying,
  kDestroyed,
  kFailed
};
inline constexpr core::EnumNames<SetupStatus, 7> kSetupStatusNames{
    {{{SetupStatus::kProvisioning, "provisioning"},
      {SetupStatus::kInstalling, "installing"},
      {SetupStatus::kReady, "ready"},
      {SetupStatus::kBenchmarking, "benchmarking"},
      {SetupStatus::kDestroying, "destroying"},
      {SetupStatus::kDestroyed, "destroyed"},
      {SetupStatus::kFailed, "failed"}}}};
inline std::string ToString(SetupStatus s) {
  return std::string(kSetupStatusNames.Name(s));
}

// True for the statuses a command holds only while it works (provisioning, installing,
// benchmarking, destroying): found with the lock free, they mean that command died.
bool IsWorkingStatus(SetupStatus status);

// Whether an engine can run on the setup's server host.
enum class InstallStatus { kInstalled, kMissing, kFailed };
inline constexpr core::EnumNames<InstallStatus, 3> kInstallStatusNames{
    {{{InstallStatus::kInstalled, "installed"},
      {InstallStatus::kMissing, "missing"},
      {InstallStatus::kFailed, "failed"}}}};
inline std::string ToString(InstallStatus s) {
  return std::string(kInstallStatusNames.Name(s));
}

// The name of the command this process runs ("run", "destroy", ...), recorded with a working
// status. Set once by the CLI; "dfbench" until then.
void SetCommandName(std::string name);
const std::string& CommandName();

// $DFBENCH_HOME, or ~/.dfbench.
std::filesystem::path HomeDir();
// HomeDir()/cache/engines: the engines installed on this machine, by version.
std::filesystem::path EngineCacheDir();
// HomeDir()/runs
std::filesystem::path RunsDir();
// RunsDir()/<id>
std::filesystem::path SetupDir(const std::string& id);
// The command that destroys setup `id`, as every message suggesting it spells it.
std::string DestroyCommand(const std::string& id);

// An engine as installed or located on the server host.
struct EngineInstall {
  std::string name;     // dragonfly | redis | valkey | memcached
  std::string binary;   // absolute path on the server host
  std::string version;  // e.g. "Redis server v=7.0.15"
  InstallStatus status = InstallStatus::kInstalled;
  std::string origin;  // release | build | local | system ("" in setups recorded before it was)
  std::string sha256;  // of the binary, when dfbench installed it into the engine cache
};

// The build `install` holds as a result row records it, with the version its running engine
// reported (`reported_version`: what actually answered, which the install's note may predate).
results::EngineBuild BuildOf(const EngineInstall& install, std::string reported_version);

// One entry of the setup's benchmark history.
struct BenchmarkRecord {
  std::string kind;    // run | commands | replication | memory
  std::string run_id;  // timestamp id, also the directory name
  std::string path;    // results.json, relative to the setup directory (absolute outside it)
  std::string created_at;
  std::string completed_at;
  results::RunStatus status = results::RunStatus::kRunning;
  std::vector<std::string> engines;
  // Why the run's results could not be written where they belong, and where they were kept
  // instead (then `path`); "" when they were written.
  std::string error;
};

// Who holds a working status: saved with it, dropped with it, so that the next command can say
// which one died and where to go back to.
struct ActiveCommand {
  std::string command;  // "run", "setup", "destroy", ...
  int pid = 0;
  std::string started_at;                      // when it entered the working status
  std::optional<SetupStatus> previous_status;  // the stable status it came from
};

// Whether the command `active` names is gone: its pid no longer runs. False when the pid is
// unknown.
bool CommandDied(const ActiveCommand& active);

struct SetupState {
  std::string id;
  SetupStatus status = SetupStatus::kProvisioning;
  ProviderKind provider = ProviderKind::kLocal;
  std::string created_at;
  std::string updated_at;
  std::string region;  // aws only
  // Where the reference records them: the Ubuntu release of the instances (aws only, "" else)
  // and whether setup was asked to tune the server's NIC (what it did: provider_data).
  std::string ubuntu_version;
  bool tune_network = false;
  std::vector<results::HostFacts> hosts;
  std::vector<EngineInstall> engines;
  std::vector<BenchmarkRecord> benchmarks;
  ProviderData provider_data;  // provider-specific details
  SetupSettings settings;      // setup flags as given
  // Set while the status is a working one (Save stamps this process when unset, and drops it
  // once the status is stable again).
  std::optional<ActiveCommand> active;

  const results::HostFacts* FindHost(core::Role role) const;
  const EngineInstall* FindEngine(const std::string& name) const;
  BenchmarkRecord* FindBenchmark(const std::string& run_id);
};

nlohmann::json ToJson(const SetupState& s);
core::Result<SetupState> FromJson(const nlohmann::json& j);

// Loads RunsDir()/<id>/state.json. kNotFound when absent (message names `dfbench list`); any
// other error means the setup is corrupt: its file cannot be read or is malformed (kUsage, the
// message says "corrupt" and names the file).
core::Result<SetupState> Load(const std::string& id);
// The status `list` shows for a setup whose state.json Load cannot read.
inline constexpr char kCorruptStatus[] = "corrupt";
// Whether `s` is in a working status that its command left behind when it died (kill -9): it
// stays until the next command on the setup repairs it, and read-only commands (list, info) say
// so instead of showing the setup at work.
bool WorkingStatusAbandoned(const SetupState& s);

// Writes state.json atomically, stamping updated_at (and `active`, see above).
core::Status Save(SetupState* s);
// Every setup under RunsDir(), newest first. The ids of corrupt ones (see Load) go to `corrupt`
// when given, by name; directories without state.json are not setups.
std::vector<SetupState> ListSetups(std::vector<std::string>* corrupt = nullptr);

// Validates a user-given id: [A-Za-z0-9._-], 1..64 chars, not "." or "..". kUsage otherwise.
core::Status ValidateId(const std::string& id);

// The advisory lock of one setup (POSIX flock on <setup>/.lock). Non-blocking: when another
// process holds it, Acquire fails at once with kLocked. Released on destruction.
class SetupLock {
 public:
  static core::Result<SetupLock> Acquire(const std::string& id);
  SetupLock(SetupLock&&) noexcept;
  SetupLock& operator=(SetupLock&&) = delete;
  SetupLock(const SetupLock&) = delete;
  ~SetupLock();

 private:
  explicit SetupLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// Moves a setup into a working status and restores the previous status when destroyed,
// unless Finish() set a final one. The state file is written at each transition, so a
// killed process leaves a status that says what it was doing.
class StatusGuard {
 public:
  // Saves `working_status` now. The caller keeps `state` alive for the guard's lifetime.
  static core::Result<StatusGuard> Enter(SetupState* state, SetupStatus working_status);
  StatusGuard(StatusGuard&&) noexcept;
  StatusGuard& operator=(StatusGuard&&) = delete;
  ~StatusGuard();
  // Sets and saves the final status; the destructor then leaves it alone.
  core::Status Finish(SetupStatus final_status);

 private:
  StatusGuard(SetupState* state, SetupStatus previous) : state_(state), previous_(previous) {}
  SetupState* state_ = nullptr;
  SetupStatus previous_ = SetupStatus::kReady;
  bool done_ = false;
};

}  // namespace dfbench::state
