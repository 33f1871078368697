#include "state/state.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "core/check.h"
#include "core/files.h"
#include "core/time_format.h"
#include "results/json_util.h"

namespace dfbench::state {
namespace {

using results::JsonReader;

constexpr const char* kStateFile = "state.json";
constexpr size_t kMaxIdLength = 64;

std::filesystem::path StatePath(const std::string& id) {
  return SetupDir(id) / kStateFile;
}

bool ReadEngine(const nlohmann::json& j, const std::string& path, EngineInstall* out,
                std::string* error) {
  JsonReader r(j, path, error);
  r.Field("name", &out->name);
  r.Field("binary", &out->binary);
  r.Field("version", &out->version);
  r.Enum("status", &out->status, kInstallStatusNames);
  if (j.contains("origin")) r.Field("origin", &out->origin);
  if (j.contains("sha256")) r.Field("sha256", &out->sha256);
  return r.ok();
}

bool ReadBenchmark(const nlohmann::json& j, const std::string& path, BenchmarkRecord* out,
                   std::string* error) {
  JsonReader r(j, path, error);
  r.Field("kind", &out->kind);
  r.Field("run_id", &out->run_id);
  r.Field("path", &out->path);
  r.Field("created_at", &out->created_at);
  r.Field("completed_at", &out->completed_at);
  r.Enum("status", &out->status, results::kRunStatusNames);
  r.Field("engines", &out->engines);
  return r.ok();
}

bool ReadActive(const nlohmann::json& j, const std::string& path, ActiveCommand* out,
                std::string* error) {
  JsonReader r(j, path, error);
  r.Field("command", &out->command);
  r.Field("pid", &out->pid);
  r.Field("started_at", &out->started_at);
  r.Enum("previous_status", &out->previous_status, kSetupStatusNames);
  return r.ok();
}

std::string& CommandNameStorage() {
  static std::string name = "dfbench";
  return name;
}

bool ReadHost(const nlohmann::json& j, const std::string& path, results::HostFacts* out,
              std::string* error) {
  return results::FromJson(j, path, out, error);
}

// Keys in the order state.json is written; unlisted keys (provider_data, settings) follow
// alphabetically.
const results::KeyOrder& StateKeyOrder() {
  static const results::KeyOrder order = {
      {"",
       {"id", "status", "active", "provider", "created_at", "updated_at", "region", "hosts",
        "engines", "benchmarks", "provider_data", "settings"}},
      {"active", {"command", "pid", "started_at", "previous_status"}},
      {"hosts",
       {"role", "name", "address", "private_address", "cpu_model", "vcpus", "memory_bytes",
        "kernel", "os", "arch", "cpus"}},
      {"engines", {"name", "binary", "version", "status", "origin", "sha256"}},
      {"benchmarks", {"kind", "run_id", "path", "created_at", "completed_at", "status", "engines"}},
  };
  return order;
}

}  // namespace

bool IsWorkingStatus(SetupStatus status) {
  return status == SetupStatus::kProvisioning || status == SetupStatus::kInstalling ||
         status == SetupStatus::kBenchmarking || status == SetupStatus::kDestroying;
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

std::filesystem::path SetupDir(const std::string& id) {
  return RunsDir() / id;
}

const results::HostFacts* SetupState::FindHost(const std::string& role) const {
  for (const auto& h : hosts) {
    if (h.role == role) return &h;
  }
  return nullptr;
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
  nlohmann::json hosts = nlohmann::json::array();
  for (const auto& h : s.hosts) hosts.push_back(results::ToJson(h));
  nlohmann::json engines = nlohmann::json::array();
  for (const auto& e : s.engines) {
    nlohmann::json engine = {{"name", e.name},
                             {"binary", e.binary},
                             {"version", e.version},
                             {"status", ToString(e.status)}};
    if (!e.origin.empty()) engine["origin"] = e.origin;
    if (!e.sha256.empty()) engine["sha256"] = e.sha256;
    engines.push_back(std::move(engine));
  }
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const auto& b : s.benchmarks) {
    benchmarks.push_back({{"kind", b.kind},
                          {"run_id", b.run_id},
                          {"path", b.path},
                          {"created_at", b.created_at},
                          {"completed_at", b.completed_at},
                          {"status", results::ToString(b.status)},
                          {"engines", b.engines}});
  }
  nlohmann::json j = {{"id", s.id},
                      {"status", ToString(s.status)},
                      {"provider", ToString(s.provider)},
                      {"created_at", s.created_at},
                      {"updated_at", s.updated_at},
                      {"region", s.region},
                      {"hosts", std::move(hosts)},
                      {"engines", std::move(engines)},
                      {"benchmarks", std::move(benchmarks)},
                      {"provider_data", s.provider_data},
                      {"settings", s.settings}};
  if (s.active) {
    j["active"] = {
        {"command", s.active->command},
        {"pid", s.active->pid},
        {"started_at", s.active->started_at},
        {"previous_status", s.active->previous_status ? ToString(*s.active->previous_status) : ""}};
  }
  return j;
}

core::Result<SetupState> FromJson(const nlohmann::json& j) {
  std::string error;
  if (!j.is_object()) {
    results::JsonReader::Mismatch("", "an object", &error);
    return core::Fail(core::ErrorKind::kUsage, error);
  }
  SetupState s;
  JsonReader r(j, "", &error);
  r.Field("id", &s.id);
  r.Enum("status", &s.status, kSetupStatusNames);
  r.Enum("provider", &s.provider, kProviderNames);
  r.Field("created_at", &s.created_at);
  r.Field("updated_at", &s.updated_at);
  r.Field("region", &s.region);
  r.Array("hosts", &s.hosts, ReadHost);
  r.Array("engines", &s.engines, ReadEngine);
  r.Array("benchmarks", &s.benchmarks, ReadBenchmark);
  r.Field("provider_data", &s.provider_data);
  r.Field("settings", &s.settings);
  if (j.contains("active") && !j["active"].is_null()) {
    s.active.emplace();
    if (!ReadActive(j["active"], "active", &*s.active, &error)) {
      return core::Fail(core::ErrorKind::kUsage, error);
    }
  }
  if (!r.ok()) return core::Fail(core::ErrorKind::kUsage, error);
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
    return tl::unexpected(text.error());
  }
  auto j = results::ParseJson(*text);
  if (!j) return tl::unexpected(core::WithContext(j.error(), path.string()));
  auto s = FromJson(*j);
  if (!s) return tl::unexpected(core::WithContext(s.error(), path.string()));
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
  return core::WriteFileAtomic(StatePath(s->id),
                               results::DumpPretty(results::Ordered(ToJson(*s), StateKeyOrder())));
}

std::vector<SetupState> ListSetups() {
  std::vector<SetupState> setups;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(RunsDir(), ec)) {
    std::error_code entry_ec;
    if (!entry.is_directory(entry_ec)) continue;
    const std::string id = entry.path().filename().string();
    if (!ValidateId(id)) continue;
    if (auto s = Load(id)) setups.push_back(std::move(*s));
  }
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
