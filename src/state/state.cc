#include "state/state.h"

#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "core/check.h"
#include "core/files.h"
#include "core/time_format.h"
#include "results/json_util.h"
#include "results/key_order.h"
#include "state/space_reserve.h"

namespace dfbench::state {
void Fields(auto& v, results::FieldsOf<EngineInstall> auto& x) {
  DFBENCH_FIELDS(name, binary, version)
  v.Enum("status", &x.status, kInstallStatusNames);
  DFBENCH_OPTIONAL_FIELDS(origin, sha256)
}

void Fields(auto& v, results::FieldsOf<BenchmarkRecord> auto& x) {
  DFBENCH_FIELDS(kind, run_id, path, created_at, completed_at)
  v.Enum("status", &x.status, results::kRunStatusNames);
  DFBENCH_FIELDS(engines)
  DFBENCH_OPTIONAL_FIELDS(error)
}

void Fields(auto& v, results::FieldsOf<ActiveCommand> auto& x) {
  DFBENCH_FIELDS(command, pid, started_at)
  v.Enum("previous_status", &x.previous_status, kSetupStatusNames);
}

void Fields(auto& v, results::FieldsOf<SetupState> auto& x) {
  DFBENCH_FIELDS(id)
  v.Enum("status", &x.status, kSetupStatusNames);
  DFBENCH_OPTIONAL_FIELDS(active)
  v.Enum("provider", &x.provider, kProviderNames);
  DFBENCH_FIELDS(created_at, updated_at, region)
  DFBENCH_OPTIONAL_FIELDS(ubuntu_version)
  DFBENCH_FIELDS(tune_network, hosts, engines, benchmarks, provider_data, settings)
}

namespace {

constexpr const char* kStateFile = "state.json";
constexpr size_t kMaxIdLength = 64;

std::filesystem::path StatePath(const std::string& id) {
  return SetupDir(id) / kStateFile;
}

// Load's error for a state file it cannot use: one line naming the setup and the file.
core::Error Corrupt(const std::string& id, const std::filesystem::path& path,
                    const core::Error& e) {
  const std::string where =
      e.message.rfind(path.string(), 0) == 0 ? e.message : path.string() + ": " + e.message;
  return core::Error{core::ErrorKind::kUsage, "setup \"" + id + "\" is corrupt: " + where};
}

std::string& CommandNameStorage() {
  static std::string name = "dfbench";
  return name;
}

}  // namespace

bool IsWorkingStatus(SetupStatus status) {
  return status == SetupStatus::kProvisioning || status == SetupStatus::kInstalling ||
         status == SetupStatus::kBenchmarking || status == SetupStatus::kDestroying;
}

bool CommandDied(const ActiveCommand& active) {
  if (active.pid <= 0) return false;
  // EPERM: it runs, as another user.
  return kill(active.pid, 0) != 0 && errno == ESRCH;
}

bool WorkingStatusAbandoned(const SetupState& s) {
  return IsWorkingStatus(s.status) && s.active && CommandDied(*s.active);
}

void SetCommandName(std::string name) {
  CommandNameStorage() = std::move(name);
}

const std::string& CommandName() {
  return CommandNameStorage();
}

std::filesystem::path HomeDir() {
  if (const char* home = std::getenv("DFBENCH_HOME"); home != nullptr && *home != '\0') {
    return home;
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".dfbench";
  }
  if (const passwd* pw = getpwuid(getuid()); pw != nullptr && pw->pw_dir != nullptr) {
    return std::filesystem::path(pw->pw_dir) / ".dfbench";
  }
  return ".dfbench";
}

std::filesystem::path EngineCacheDir() {
  return HomeDir() / "cache" / "engines";
}

std::filesystem::path RunsDir() {
  return HomeDir() / "runs";
}

std::string DestroyCommand(const std::string& id) {
  return "dfbench destroy --id " + id;
}

std::filesystem::path SetupDir(const std::string& id) {
  return RunsDir() / id;
}

const results::HostFacts* SetupState::FindHost(core::Role role) const {
  for (const auto& h : hosts) {
    if (h.role == role) return &h;
  }
  return nullptr;
}

results::EngineBuild BuildOf(const EngineInstall& install, std::string reported_version) {
  return {
      .version = std::move(reported_version), .origin = install.origin, .sha256 = install.sha256};
}

const EngineInstall* SetupState::FindEngine(const std::string& name) const {
  for (const auto& e : engines) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

BenchmarkRecord* SetupState::FindBenchmark(const std::string& run_id) {
  for (auto& b : benchmarks) {
    if (b.run_id == run_id) return &b;
  }
  return nullptr;
}

nlohmann::json ToJson(const SetupState& s) {
  return results::ToJson(s);
}

core::Result<SetupState> FromJson(const nlohmann::json& j) {
  std::string error;
  SetupState s;
  if (!results::FromJson(j, &s, &error)) return core::Fail(core::ErrorKind::kUsage, error);
  return s;
}

core::Result<SetupState> Load(const std::string& id) {
  if (auto valid = ValidateId(id); !valid) return tl::unexpected(valid.error());
  const std::filesystem::path path = StatePath(id);
  auto text = core::ReadFile(path);
  if (!text) {
    if (text.error().kind == core::ErrorKind::kNotFound) {
      return core::Fail(
          core::ErrorKind::kNotFound,
          "setup \"" + id + "\" not found (run 'dfbench list' to see available setups)");
    }
    return tl::unexpected(Corrupt(id, path, text.error()));
  }
  auto j = results::ParseJson(*text);
  if (!j) return tl::unexpected(Corrupt(id, path, j.error()));
  auto s = FromJson(*j);
  if (!s) return tl::unexpected(Corrupt(id, path, s.error()));
  // The directory names the setup, even if the file was copied from another one.
  s->id = id;
  return s;
}

core::Status Save(SetupState* s) {
  DFB_CHECK(s != nullptr);
  if (auto valid = ValidateId(s->id); !valid) return valid;
  s->updated_at = core::NowIso8601();
  if (s->created_at.empty()) s->created_at = s->updated_at;
  if (!IsWorkingStatus(s->status)) {
    s->active.reset();
  } else if (!s->active || s->active->pid == 0) {
    ActiveCommand a = s->active.value_or(ActiveCommand{});
    a.command = CommandName();
    a.pid = static_cast<int>(getpid());
    a.started_at = s->updated_at;
    s->active = a;
  }
  if (auto made = core::MakeDirs(SetupDir(s->id)); !made) return made;
  // Keys in the order of the field lists above.
  const std::string text = results::RenderDocument(*s);
  core::Status written = core::WriteFileAtomic(StatePath(s->id), text);
  // A full disk must not keep a working status: the reserve's space takes this save.
  if (!written && ReleaseSpaceReserve(SetupDir(s->id))) {
    written = core::WriteFileAtomic(StatePath(s->id), text);
  }
  if (written) KeepSpaceReserve(SetupDir(s->id));
  return written;
}

std::vector<SetupState> ListSetups(std::vector<std::string>* corrupt) {
  std::vector<SetupState> setups;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(RunsDir(), ec)) {
    std::error_code entry_ec;
    if (!entry.is_directory(entry_ec)) continue;
    const std::string id = entry.path().filename().string();
    if (!ValidateId(id)) continue;
    auto s = Load(id);
    if (s) {
      setups.push_back(std::move(*s));
    } else if (corrupt && s.error().kind != core::ErrorKind::kNotFound) {
      corrupt->push_back(id);
    }
  }
  if (corrupt) std::sort(corrupt->begin(), corrupt->end());
  // ISO-8601 UTC timestamps order as text; ties by id keep the listing stable.
  std::sort(setups.begin(), setups.end(), [](const SetupState& a, const SetupState& b) {
    if (a.created_at != b.created_at) return a.created_at > b.created_at;
    return a.id < b.id;
  });
  return setups;
}

core::Status ValidateId(const std::string& id) {
  const bool charset_ok = std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
  if (id.empty() || id.size() > kMaxIdLength || !charset_ok || id == "." || id == "..") {
    return core::Fail(core::ErrorKind::kUsage,
                      "invalid setup id \"" + id +
                          "\": use 1-64 letters, digits, '.', '_' or '-' (not \".\" or \"..\")");
  }
  return core::Ok();
}

}  // namespace dfbench::state
