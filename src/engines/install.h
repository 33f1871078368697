// Engines on a host: used where they already are, or installed on Debian and Ubuntu hosts from
// the OS packages (redis-server, valkey-server, memcached); a pinned version (--<engine>_version)
// comes from a release archive (Dragonfly's builds, Valkey's Ubuntu builds), a source release
// built on the host (Redis, memcached, Valkey where no build matches), or a local file dfbench
// uploads, into the host's engine cache (engines/engine_cache.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "engines/engine.h"
#include "hosts/host.h"

namespace dfbench::engines {

// The fields of /etc/os-release that choose an install method.
struct OsRelease {
  std::string id;          // ubuntu, debian, ...
  std::string version_id;  // 22.04, 12
  std::string codename;    // jammy, bookworm
  std::string pretty;      // "Ubuntu 22.04.5 LTS"
  std::vector<std::string> id_like;
};
OsRelease ParseOsRelease(const std::string& text);
bool IsDebianLike(const OsRelease& os);
// The Ubuntu release whose builds (PublishedBuilds::kUbuntuBuilds) run on `os` (same or older
// glibc): focal, jammy or noble; "" when there is none.
std::string UbuntuBuildFor(const OsRelease& os);

// What --<engine>_version asks for.
struct VersionSpec {
  enum class Kind {
    kAny,        // "": whatever the host has, else the latest release
    kSystem,     // "system": the OS package or the program on PATH, never a download
    kLatest,     // "latest"
    kTag,        // "v1.31.0": spelled with the engine's tag prefix ("1.31.0" gets a "v" where
                 // tags have one, "v8.0.2" loses it where they have none)
    kUrl,        // "https://.../dragonfly-x86_64.tar.gz"
    kLocalFile,  // a path on this machine: a raw binary or a .tar.gz
  };
  Kind kind = Kind::kAny;
  std::string value;
};
// `text` as given to --<engine>_version. kUsage for http:// URLs (except to this machine's
// loopback or under the mirror named in $DFBENCH_<ENGINE>_RELEASES) and for local paths that
// do not exist.
core::Result<VersionSpec> ParseVersionSpec(const std::string& text, const EngineSpec& spec);

// Where an engine's releases are downloaded from: $DFBENCH_<ENGINE>_RELEASES (a mirror), else
// spec.releases.base_url.
std::string ReleaseBase(const EngineSpec& spec);
// The build `spec` publishes at `tag` ("": its latest) for a host of `os` and `arch` (uname -m
// spelling), as spec.releases.builds lays them out; "" when none matches the host.
std::string PublishedBuildUrl(const EngineSpec& spec, const std::string& tag, const OsRelease& os,
                              const std::string& arch);
// <base>/<name>-<version>.tar.gz: a source release.
std::string SourceReleaseUrl(const EngineSpec& spec, const std::string& version);

// The architecture an ELF header is built for ("x86_64", "aarch64", "i386", "arm", "riscv64",
// "ppc64le", "s390x", "machine-<n>"); "" when `header` is not ELF.
std::string ElfArch(std::string_view header);
// kUsage unless `file` is an ELF executable for `host_arch` (uname -m spelling).
core::Status CheckElfArch(const std::filesystem::path& file, const std::string& host_arch);

// What a host offers for one engine, learned in one round trip.
struct HostOffer {
  OsRelease os;
  std::string arch;                    // uname -m
  std::optional<std::string> on_path;  // the engine's program, if installed
  std::string package_candidate;       // apt-cache policy's Candidate ("" when none)
  bool package_lists = true;           // apt has package lists (false on fresh cloud images)
};

enum class InstallMethod {
  kPresent,         // already on the host
  kOsPackage,       // apt-get install
  kReleaseTarball,  // a binary release downloaded on the host
  kSourceBuild,     // a source release, built on the host
  kUpload,          // a local file uploaded by dfbench
  kImpossible,
};

struct InstallPlan {
  InstallMethod method = InstallMethod::kImpossible;
  std::string package;  // kOsPackage
  std::string url;      // kReleaseTarball, kSourceBuild
  std::string label;    // the version part of its cache directory (kReleaseTarball, kSourceBuild)
  std::string reason;   // kImpossible: why, and what to do instead
};
// Pure: the method for `spec` on a host offering `offer`. An engine on the host is used unless
// a specific version (a tag, latest, a URL or a file) is asked for.
InstallPlan PlanInstall(const EngineSpec& spec, const VersionSpec& version, const HostOffer& offer);
// "apt", "release", ... as recorded in state.json.
std::string MethodName(InstallMethod method);

struct InstallRequest {
  VersionSpec version;              // --<engine>_version
  std::string explicit_binary;      // --<engine>_binary: a path on the host, used as is
  std::string cache_root;           // the engine cache; "": ~/.dfbench/cache/engines on the host
  bool install_build_tools = true;  // apt-get build-essential for a source build when missing
};

struct InstalledEngine {
  std::string binary;              // absolute path on the host
  std::string version;             // first line of `<binary> --version`
  std::string method;              // present, binary, apt, release, source, upload, local
  std::string source;              // package name, URL or local file
  std::string origin;              // release, build, local or system (OriginOf(method))
  std::string sha256;              // of the installed binary (cached installs)
  bool checksum_verified = false;  // the archive matched its published checksum
};
// "release" (a downloaded or uploaded build), "build" (built on the host), "local" (a build
// `dfbench cache add` put into the cache) or "system" (a package, the PATH or --<engine>_binary).
std::string OriginOf(const std::string& method);

// Finds or installs `spec` on `host` and reads its version. Privileged steps (apt-get) run as
// root or through `sudo -n`. kEnvironment naming the host, the engine and what to do when it
// cannot be found, installed or run; kUsage for a local file of the wrong architecture.
core::Result<InstalledEngine> EnsureInstalled(hosts::Host& host, const EngineSpec& spec,
                                              const InstallRequest& request);

}  // namespace dfbench::engines
