// The engine cache of a host: <root>/<engine>/<version>-<arch>/ holds one installed version (the
// engine's program and dfbench-install.json), so a version is downloaded and built once per
// host. An install is staged in <root>/<engine>/.stage-*, checked (published checksum where
// there is one, the binary's ELF architecture, a run of `--version`) and only then renamed into
// place: a version directory that exists is complete, whatever interrupted an earlier install.
// A build already on this machine enters the same way (engines/local_build.h).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "engines/engine.h"
#include "hosts/host.h"

namespace dfbench::engines {

inline constexpr const char* kCacheManifest = "dfbench-install.json";

// One version to bring into the cache.
struct CacheTarget {
  std::string root;      // the cache root on the host, absolute
  std::string label;     // the version part of the directory: v1.31.0, 8.0.2, url-<hash>, ...
  std::string arch;      // the host's architecture (uname -m spelling)
  std::string url;       // https://, http:// to the loopback, or file:// on the host
  std::string pattern;   // the binary's name in a release archive (a shell glob)
  bool refresh = false;  // fetch again even when cached (`latest` moves)
};

struct CachedEngine {
  std::string dir;     // <root>/<engine>/<label>-<arch>
  std::string binary;  // <dir>/<program>
  // release (a binary in the archive, which matched its published checksum), download (a binary
  // in an archive with no published checksum), file (a binary in a file the user named), build
  // (made from its source) or local (a build already on the machine, engines/local_build.h):
  // CachedOrigin
  std::string origin;
  std::string sha256;              // of the binary
  bool checksum_verified = false;  // the archive matched its published <url>.sha256
  bool reused = false;             // found in the cache: nothing was downloaded
};

// Finds `target` in the host's cache or installs it there: downloads the archive (progress on
// stderr), checks it against <url>.sha256 when the server publishes one, takes the binary from
// it or builds it with make when it is a source tree, checks the binary's architecture and that
// it runs, then renames the staged directory into place. kEnvironment with one line naming the
// URL and the reason (HTTP 404, checksum mismatch, no binary in the archive, another
// architecture, a failed build) and nothing left in the cache; kInterrupted on SIGINT/SIGTERM.
core::Result<CachedEngine> InstallIntoCache(hosts::Host& host, const EngineSpec& spec,
                                            const CacheTarget& target);

// One directory of a cache on this machine (for `dfbench cache`).
struct CacheEntry {
  std::string engine;
  std::string name;  // <version>-<arch>, or .stage-* for an install that never finished
  std::filesystem::path dir;
  bool complete = false;  // has its manifest: a staging leftover otherwise
  nlohmann::json manifest = nlohmann::json::object();
  uintmax_t bytes = 0;
};
// The origin a cache manifest records (CachedEngine::origin): "release" only for an archive whose
// published checksum matched; "" when it records none.
std::string CachedOrigin(const nlohmann::json& manifest);

// Every version directory and staging leftover under `root`, sorted by engine and name.
std::vector<CacheEntry> ListCache(const std::filesystem::path& root);

}  // namespace dfbench::engines
