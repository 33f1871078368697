#include "providers/local_provider.h"

#include "core/log.h"
#include "engines/local_build.h"
#include "hosts/leftovers.h"
#include "hosts/local_host.h"

namespace dfbench::providers {
namespace {

std::filesystem::path WorkDirOf(const std::string& id) {
  return state::SetupDir(id) / "work";
}

// The binary to use for `spec`, or an error message saying why there is none.
core::Result<std::string> LocateBinary(hosts::Host& host, const engines::EngineSpec& spec,
                                       const SetupRequest& request) {
  const std::string flag = "--" + spec.name + "_binary";
  if (auto it = request.binaries.find(spec.name); it != request.binaries.end()) {
    std::string path = it->second;
    // A path relative to where dfbench was started must keep working from anywhere.
    if (path.find('/') != std::string::npos) {
      std::error_code ec;
      auto absolute = std::filesystem::absolute(path, ec);
      if (!ec) path = absolute.lexically_normal().string();
    }
    if (auto found = host.Which(path)) return *found;
    return core::Fail(core::ErrorKind::kEnvironment,
                      flag + " " + it->second + ": not an executable file");
  }
  if (auto found = host.Which(spec.program)) return *found;
  return core::Fail(
      core::ErrorKind::kEnvironment,
      "\"" + spec.program + "\" not found on PATH (install it or pass " + flag + " PATH)");
}

// The build of `entry` in the engine cache, as a setup records it.
core::Result<state::EngineInstall> UseCachedBuild(hosts::Host& host,
                                                  const engines::EngineSpec& spec,
                                                  const engines::CacheEntry& entry) {
  const std::string binary = (entry.dir / spec.program).string();
  auto version = engines::ProbeVersion(host, binary, spec);
  if (!version) return tl::unexpected(version.error());
  const std::string origin = engines::CachedOrigin(entry.manifest);
  core::Notef("{}: \"{}\" is not on PATH: using {} from the engine cache ({}{})", spec.name,
              spec.program, entry.dir.string(), origin,
              origin == "local" ? ", added from " + entry.manifest.value("source_path", "?") : "");
  return state::EngineInstall{.name = spec.name,
                              .binary = binary,
                              .version = *version,
                              .status = state::InstallStatus::kInstalled,
                              .origin = origin,
                              .sha256 = entry.manifest.value("sha256", "")};
}

// Where an engine comes from, first match wins: --<engine>_binary; a pinned version
// (--<engine>_version: a tag, latest, a URL or a file) from the engine cache under ~/.dfbench,
// installed there without root when missing (a tag the cache holds, a local build added with
// `dfbench cache add` included, is used without a download); the program on PATH; the build
// added to or installed in the cache last; and for quickstart, the latest release downloaded.
core::Result<state::EngineInstall> FindOrInstall(hosts::Host& host, const engines::EngineSpec& spec,
                                                 const SetupRequest& request) {
  using Kind = engines::VersionSpec::Kind;
  auto v = request.versions.find(spec.name);
  const bool pinned = v != request.versions.end() && v->second.kind != Kind::kAny &&
                      v->second.kind != Kind::kSystem && !request.binaries.count(spec.name);
  if (pinned) {
    auto done = engines::EnsureInstalled(host, spec,
                                         {.version = v->second,
                                          .cache_root = state::EngineCacheDir().string(),
                                          .install_build_tools = false});
    if (!done) return tl::unexpected(done.error());
    return InstalledRecord(spec, *done);
  }
  auto binary = LocateBinary(host, spec, request);
  // Nothing asked for and nothing on PATH: a build the cache already holds beats a download.
  // "system" means the PATH only.
  const bool open = (v == request.versions.end() || v->second.kind == Kind::kAny) &&
                    !request.binaries.count(spec.name);
  if (!binary && open) {
    if (auto cached = engines::NewestCachedBuild(state::EngineCacheDir(), spec)) {
      return UseCachedBuild(host, spec, *cached);
    }
  }
  // quickstart: an engine missing here is fetched (its latest release, into the cache) where
  // there is network; without, the line that skips it says both why.
  if (!binary && request.skip_missing_engines && v == request.versions.end() &&
      !request.binaries.count(spec.name)) {
    SetupRequest latest = request;
    latest.versions[spec.name] = {engines::VersionSpec::Kind::kLatest, "latest"};
    auto fetched = FindOrInstall(host, spec, latest);
    if (fetched) return fetched;
    return core::Fail(fetched.error().kind == core::ErrorKind::kInterrupted
                          ? core::ErrorKind::kInterrupted
                          : core::ErrorKind::kEnvironment,
                      binary.error().message + "; fetching it failed: " + fetched.error().message);
  }
  if (!binary) return tl::unexpected(binary.error());
  auto version = engines::ProbeVersion(host, *binary, spec);
  if (!version) return tl::unexpected(version.error());
  return state::EngineInstall{.name = spec.name,
                              .binary = *binary,
                              .version = *version,
                              .status = state::InstallStatus::kInstalled,
                              .origin = "system"};
}

}  // namespace

CpuSplit SplitCpus(const std::vector<int>& allowed) {
  if (allowed.size() < 2) return {};
  const size_t half = std::max<size_t>(1, allowed.size() / 2);
  return {{allowed.begin(), allowed.begin() + static_cast<long>(half)},
          {allowed.begin() + static_cast<long>(half), allowed.end()}};
}

std::optional<ReplicaCpuSplit> SplitCpusWithReplicas(const std::vector<int>& allowed,
                                                     int replicas) {
  const size_t roles = static_cast<size_t>(replicas) + 2;
  if (replicas < 0 || allowed.size() < roles) return std::nullopt;
  const auto share = static_cast<long>(allowed.size() / roles);
  auto next = allowed.begin();
  auto take = [&](long n) {
    std::vector<int> cpus(next, next + n);
    next += n;
    return cpus;
  };
  ReplicaCpuSplit split;
  split.server = take(share);
  for (int i = 0; i < replicas; ++i) split.replicas.push_back(take(share));
  split.client = take(allowed.end() - next);
  return split;
}

namespace {

// The roles of this machine: server and client (split or not), then the replicas.
std::vector<results::HostFacts> LocalRoles(const results::HostFacts& facts,
                                           const SetupRequest& request) {
  auto role = [&facts](core::Role r, std::vector<int> cpus) {
    results::HostFacts h = facts;
    h.role = r;
    h.cpus = std::move(cpus);
    return h;
  };
  const std::vector<int> allowed = hosts::AllowedCpus();
  std::vector<results::HostFacts> roles;
  if (request.pin_cpus && request.local_replicas > 0) {
    if (auto split = SplitCpusWithReplicas(allowed, request.local_replicas)) {
      roles.push_back(role(core::Role::Server(), split->server));
      roles.push_back(role(core::Role::Client(), split->client));
      for (size_t i = 0; i < split->replicas.size(); ++i) {
        roles.push_back(role(core::Role::Replica(static_cast<int>(i)), split->replicas[i]));
      }
      return roles;
    }
    core::Notef(
        "{} CPU(s) are too few to give the master, {} replica(s) and the load generator CPUs of "
        "their own: the replicas share the master's CPUs",
        allowed.size(), request.local_replicas);
  }
  const CpuSplit split = request.pin_cpus ? SplitCpus(allowed) : CpuSplit{};
  if (split.server.empty()) {
    roles.push_back(facts);
  } else {
    roles.push_back(role(core::Role::Server(), split.server));
    roles.push_back(role(core::Role::Client(), split.client));
  }
  for (int i = 0; i < request.local_replicas; ++i) {
    roles.push_back(role(core::Role::Replica(i), split.server));
  }
  return roles;
}

}  // namespace

core::Status LocalProvider::Provision(state::SetupState* state, const SetupRequest& request) {
  hosts::LocalHost host(WorkDirOf(state->id));
  auto facts = host.Facts(core::Role::Local());
  if (!facts) return tl::unexpected(facts.error());
  state->provider = Kind();
  state->provider_data.engine_port = request.engine_port;
  state->hosts = LocalRoles(*facts, request);

  if (request.on_installing) {
    if (auto st = request.on_installing(); !st) return st;
  }
  state->engines.clear();
  std::vector<std::string> unusable;
  for (const engines::EngineSpec* spec : request.engines) {
    auto installed = FindOrInstall(host, *spec, request);
    if (!installed) {
      const core::Error& error = installed.error();
      if (error.kind == core::ErrorKind::kInterrupted) return tl::unexpected(error);
      // Only engines left to PATH are optional: an explicit binary or version that does not
      // work is a mistake to report, not an engine to skip.
      if (!request.skip_missing_engines || request.binaries.count(spec->name) ||
          request.versions.count(spec->name)) {
        return core::Fail(core::ErrorKind::kEnvironment, error.message);
      }
      core::Note("skipping " + spec->name + ": " + error.message);
      unusable.push_back(spec->name + " (" + error.message + ")");
      continue;
    }
    state->engines.push_back(*installed);
  }
  if (state->engines.empty()) {
    std::string why;
    for (const auto& u : unusable) why += (why.empty() ? "" : "; ") + u;
    return core::Fail(core::ErrorKind::kEnvironment,
                      "no engine to benchmark: " + (why.empty() ? "none requested" : why));
  }
  return core::Ok();
}

core::Status LocalProvider::InstallEngine(state::SetupState* state, Fleet& fleet,
                                          const engines::EngineSpec& spec,
                                          const engines::VersionSpec& version) {
  SetupRequest request;
  request.versions[spec.name] = version;
  auto installed = FindOrInstall(*fleet.server, spec, request);
  if (!installed) return tl::unexpected(installed.error());
  RecordEngine(state, *installed);
  return core::Ok();
}

core::Result<Fleet> LocalProvider::Connect(const state::SetupState& state) {
  if (state.provider != Kind()) {
    return core::Fail(core::ErrorKind::kUsage, "setup \"" + state.id + "\" belongs to the " +
                                                   state::ToString(state.provider) +
                                                   " provider, not local");
  }
  auto host = std::make_shared<hosts::LocalHost>(WorkDirOf(state.id));
  Fleet fleet{.server = host, .client = host, .engine_port = RecordedEnginePort(state)};
  if (const auto* server = state.FindHost(core::Role::Server())) fleet.server_cpus = server->cpus;
  if (const auto* client = state.FindHost(core::Role::Client())) fleet.client_cpus = client->cpus;
  for (const auto& h : state.hosts) {
    if (!h.role.IsReplica()) continue;
    fleet.replicas.push_back(host);
    fleet.replica_cpus.push_back(h.cpus);
  }
  return fleet;
}

core::Status LocalProvider::StopLeftovers(const state::SetupState& state) {
  hosts::LocalHost host(WorkDirOf(state.id));
  return hosts::StopLeftovers(host);
}

core::Status LocalProvider::Destroy(state::SetupState* state) {
  // What a killed command left (a snapshot child, files in a --snapshot-dir) is named by the
  // records in work/, which go with it.
  if (auto st = StopLeftovers(*state); !st) return st;
  std::error_code ec;
  std::filesystem::remove_all(WorkDirOf(state->id), ec);
  if (ec) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot remove " + WorkDirOf(state->id).string() + ": " + ec.message());
  }
  return core::Ok();
}

}  // namespace dfbench::providers
