// Builds of an engine that are already on this machine (made from source, copied from another
// machine) in this machine's engine cache: `dfbench cache add` stores one the way a downloaded
// release is stored (engines/engine_cache.h: <root>/<engine>/<version>-<arch>/ with its
// manifest, origin "local"), and a setup that names neither a binary nor a version finds the
// newest cached build of an engine that is not on PATH.
#pragma once

#include <filesystem>
#include <optional>

#include "core/error.h"
#include "engines/engine.h"
#include "engines/engine_cache.h"

namespace dfbench::engines {

enum class OnCached { kRefuse, kReplace };

// Copies the executable `binary` into <root>/<engine>/<label>-<arch>/<program>, where <label>
// is VersionLabel of its `--version` line and <arch> this machine's architecture, with a
// manifest (version, label, arch, origin "local", source_path, sha256, checksum "recorded",
// installed_at). Staged in <root>/<engine>/.stage-add.* and renamed into place once complete,
// so an interrupted add leaves only a leftover `cache prune` removes. kUsage, one line, when
// `binary` is not an executable file, not an ELF executable for this machine, not `spec`'s
// program (its version line), or when that version is cached already and `on_cached` is
// kRefuse; kEnvironment when the copy cannot be made or does not run. Returns the new entry.
core::Result<CacheEntry> AddLocalBuild(const std::filesystem::path& root, const EngineSpec& spec,
                                       const std::filesystem::path& binary, OnCached on_cached);

// The complete entry of `spec` for this machine's architecture that was added or installed last
// (manifest installed_at), of any origin but a download nobody could verify ("download":
// used only when its version is asked for); nullopt when the cache holds none whose program
// is executable. Staging leftovers never count.
std::optional<CacheEntry> NewestCachedBuild(const std::filesystem::path& root,
                                            const EngineSpec& spec);

}  // namespace dfbench::engines
