// Adding a local build to this machine's engine cache, and finding the newest cached build.
#include "engines/local_build.h"

#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/files.h"
#include "core/time_format.h"
#include "engines/install.h"
#include "hosts/digest.h"
#include "hosts/local_host.h"
#include "hosts/remote_facts.h"

namespace dfbench::engines {
namespace {

namespace fs = std::filesystem;

std::string MachineArch() {
  struct utsname u;
  return hosts::CanonicalArch(uname(&u) == 0 ? std::string(u.machine) : "");
}

// kUsage unless `file` is an ELF executable built for this machine.
core::Status CheckRunsHere(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  char header[64] = {};
  in.read(header, sizeof(header));
  const std::string arch = ElfArch(std::string_view(header, static_cast<size_t>(in.gcount())));
  if (arch.empty()) {
    return core::Fail(core::ErrorKind::kUsage, file.string() + " is not an ELF executable");
  }
  if (arch != MachineArch()) {
    return core::Fail(core::ErrorKind::kUsage, file.string() + " is built for " + arch +
                                                   ", but this machine is " + MachineArch());
  }
  return core::Ok();
}

// The first line of `binary --version`, run from a scratch work directory (nothing is started).
core::Result<std::string> VersionLine(const fs::path& binary, const EngineSpec& spec) {
  hosts::LocalHost host(fs::temp_directory_path());
  return ProbeVersion(host, binary.string(), spec);
}

CacheEntry EntryOf(const fs::path& dir, const EngineSpec& spec, nlohmann::json manifest) {
  CacheEntry e{.engine = spec.name,
               .name = dir.filename().string(),
               .dir = dir,
               .complete = true,
               .manifest = std::move(manifest)};
  std::error_code ec;
  e.bytes = fs::file_size(dir / spec.program, ec);
  if (ec) e.bytes = 0;
  return e;
}

// Moves the complete `stage` to `final`, replacing what is there: the old version is renamed
// aside first, so `final` is always either the old or the new complete directory.
core::Status Publish(const fs::path& stage, const fs::path& final) {
  std::error_code ec;
  fs::path aside;
  if (fs::exists(final, ec)) {
    aside = final.parent_path() /
            (".stage-replaced-" + final.filename().string() + "." + std::to_string(getpid()));
    fs::rename(final, aside, ec);
    if (ec) {
      return core::Fail(core::ErrorKind::kEnvironment,
                        "cannot move " + final.string() + " aside: " + ec.message());
    }
  }
  fs::rename(stage, final, ec);
  if (ec) {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot move " + stage.string() + " to " +
                                                         final.string() + ": " + ec.message());
  }
  if (!aside.empty()) fs::remove_all(aside, ec);
  return core::Ok();
}

}  // namespace

core::Result<CacheEntry> AddLocalBuild(const fs::path& root, const EngineSpec& spec,
                                       const fs::path& binary, OnCached on_cached) {
  std::error_code ec;
  fs::path source = fs::absolute(binary, ec).lexically_normal();
  if (ec) source = binary;
  if (!fs::is_regular_file(source, ec) || ::access(source.c_str(), X_OK) != 0) {
    return core::Fail(core::ErrorKind::kUsage, binary.string() + ": not an executable file");
  }
  if (auto st = CheckRunsHere(source); !st) return tl::unexpected(st.error());
  auto line = VersionLine(source, spec);
  if (!line) {
    if (line.error().kind == core::ErrorKind::kInterrupted) return tl::unexpected(line.error());
    return core::Fail(core::ErrorKind::kUsage,
                      binary.string() + " is not " + spec.name + ": " + line.error().message);
  }
  auto label = VersionLabel(spec, *line);
  if (!label) {
    return core::Fail(core::ErrorKind::kUsage, binary.string() + " is " + label.error().message);
  }
  const fs::path engine_dir = root / spec.name;
  const fs::path final = engine_dir / (*label + "-" + MachineArch());
  if (auto existing = core::ReadFile(final / kCacheManifest);
      existing && on_cached == OnCached::kRefuse) {
    const auto manifest = nlohmann::json::parse(*existing, nullptr, false);
    const std::string origin = manifest.is_object() ? manifest.value("origin", "") : "";
    return core::Fail(core::ErrorKind::kUsage, spec.name + " " + *label + " is cached already in " +
                                                   final.string() +
                                                   (origin.empty() ? "" : " (" + origin + ")") +
                                                   "; pass --force to replace it");
  }

  if (auto st = core::MakeDirs(engine_dir); !st) return tl::unexpected(st.error());
  std::string pattern = (engine_dir / ".stage-add.XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot stage under " + engine_dir.string() + ": " + std::strerror(errno));
  }
  const fs::path stage = pattern;
  auto fail = [&stage](core::ErrorKind kind, const std::string& message) {
    std::error_code rm_ec;
    fs::remove_all(stage, rm_ec);
    return core::Fail(kind, message);
  };
  const fs::path copy = stage / spec.program;
  fs::copy_file(source, copy, ec);
  if (!ec) {
    fs::permissions(copy,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                        fs::perms::others_read | fs::perms::others_exec,
                    ec);
  }
  if (ec) {
    return fail(core::ErrorKind::kEnvironment,
                "cannot copy " + source.string() + " to " + copy.string() + ": " + ec.message());
  }
  // The copy must run on its own (no library beside the original it needs) and be the same.
  auto copied = VersionLine(copy, spec);
  if (!copied || *copied != *line) {
    return fail(core::ErrorKind::kEnvironment,
                "the copy of " + source.string() + " in the cache does not run as the original: " +
                    (copied ? "it says \"" + *copied + "\"" : copied.error().message));
  }
  auto sha256 = hosts::Sha256File(copy);
  if (!sha256) return fail(sha256.error().kind, sha256.error().message);
  const nlohmann::json manifest = {
      {"engine", spec.name},   {"version", *line},       {"label", *label},
      {"arch", MachineArch()}, {"origin", "local"},      {"source_path", source.string()},
      {"sha256", *sha256},     {"checksum", "recorded"}, {"installed_at", core::NowIso8601()}};
  // The manifest last: a staged directory without one is a leftover, never a version.
  if (auto st = core::WriteFileAtomic(stage / kCacheManifest, manifest.dump(2) + "\n"); !st) {
    return fail(st.error().kind, st.error().message);
  }
  if (auto st = Publish(stage, final); !st) return fail(st.error().kind, st.error().message);
  return EntryOf(final, spec, manifest);
}

std::optional<CacheEntry> NewestCachedBuild(const fs::path& root, const EngineSpec& spec) {
  const std::string arch = MachineArch();
  std::optional<CacheEntry> newest;
  for (auto& e : ListCache(root)) {
    if (e.engine != spec.name || !e.complete || e.name.front() == '.') continue;
    if (e.manifest.value("arch", "") != arch) continue;
    if (::access((e.dir / spec.program).c_str(), X_OK) != 0) continue;
    // A binary nobody could verify is used only when its version is asked for by name.
    if (CachedOrigin(e.manifest) == "download") continue;
    // ListCache sorts by name, so of two installed in the same second the later name wins.
    if (!newest ||
        e.manifest.value("installed_at", "") >= newest->manifest.value("installed_at", "")) {
      newest = std::move(e);
    }
  }
  return newest;
}

}  // namespace dfbench::engines
