// Installing into a host's engine cache: one shell script on the host stages the download or
// build, dfbench checks the result, and one rename makes it visible.
#include "engines/engine_cache.h"

#include <algorithm>

#include "core/files.h"
#include "core/log.h"
#include "core/time_format.h"
#include "engines/install.h"
#include "hosts/remote_facts.h"

namespace dfbench::engines {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

// $1 root, $2 engine, $3 <label>-<arch>, $4 URL, $5 binary pattern, $6 program, $7 refresh.
// Progress goes to stderr (streamed); the outcome to stdout in @@sections, a failure as one
// @@error line. The staging directory goes on every failure and on SIGINT/SIGTERM/SIGHUP.
constexpr const char* kFetchScript =
    R"sh(root=$1; engine=$2; name=$3; url=$4; pattern=$5; program=$6
final="$root/$engine/$name"
if [ "$7" != 1 ] && [ -f "$final/dfbench-install.json" ] && [ -x "$final/$program" ]; then
  echo @@cached; echo "$final"; echo @@manifest; cat "$final/dfbench-install.json"; exit 0
fi
mkdir -p "$root/$engine" || { echo "@@error cannot create $root/$engine"; exit 1; }
stage=$(mktemp -d "$root/$engine/.stage-$name.XXXXXX") || { echo "@@error cannot stage under $root/$engine"; exit 1; }
trap 'rm -rf "$stage"; exit 130' INT TERM HUP
fail() { cd /; rm -rf "$stage"; rmdir "$root/$engine" 2>/dev/null; echo "@@error $*"; exit 2; }
say() { echo "$*" >&2; }
cd "$stage" || fail "cannot enter $stage"
fetch() {
  if command -v curl >/dev/null 2>&1; then curl -fsSL --retry 2 --connect-timeout 20 -o "$2" "$1" 2>"$2.err"
  elif command -v wget >/dev/null 2>&1; then wget -q -T 20 -O "$2" "$1" 2>"$2.err"
  else echo "neither curl nor wget is installed" >"$2.err"; return 4; fi
}
# Runs "$@" in the background, saying every few seconds what `$1` reports about its progress.
watch() {
  report=$1; shift; n=0
  "$@" & pid=$!
  while kill -0 $pid 2>/dev/null; do
    sleep 1; n=$((n + 1))
    [ $((n % 3)) -eq 0 ] && kill -0 $pid 2>/dev/null && line=$($report) && [ -n "$line" ] &&
      say "  $line"
  done
  wait $pid
}
# Nothing until the first bytes arrive: a download that cannot start says so once, at its end.
bytes() { [ -s pkg ] && echo "$(wc -c <pkg) bytes"; }
say "downloading $url"
watch bytes fetch "$url" pkg || {
  if grep -q 404 pkg.err 2>/dev/null; then fail "no such release: $url (HTTP 404)"; fi
  fail "download of $url failed: $(head -n 1 pkg.err)"
}
say "  $(bytes)"
archive_sum=$(sha256sum pkg | cut -d' ' -f1)
checksum=recorded
if fetch "$url.sha256" pkg.sha256; then
  published=$(grep -o '[0-9a-f]\{64\}' pkg.sha256 | head -n 1)
  [ -n "$published" ] || fail "$url.sha256 holds no SHA-256"
  [ "$published" = "$archive_sum" ] || fail "checksum mismatch for $url: published $published, downloaded $archive_sum"
  checksum=verified
fi
mkdir tree
case $(od -An -tx1 -N4 pkg | tr -d ' \n') in
  1f8b*) tar -xzf pkg -C tree 2>/dev/null || fail "$url is not a readable .tar.gz" ;;
  7f454c46) cp pkg "tree/$program" ;;
  *) fail "$url is neither a .tar.gz nor an ELF binary" ;;
esac
bin=$(find tree -type f -name "$pattern" | head -n 1)
# A published build is a release only once its published checksum matched; a file the user
# named is theirs.
origin=download
[ $checksum = verified ] && origin=release
case $url in file://*) origin=file ;; esac
if [ -z "$bin" ]; then
  makefile=$(find tree -maxdepth 2 -name Makefile | head -n 1)
  [ -n "$makefile" ] || fail "$url holds no $pattern and no source tree with a Makefile"
  src=$(dirname "$makefile")
  command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 ||
    fail "building $url needs make and a C compiler on the host"
  # The build's last line, without the colour codes some Makefiles print.
  last() { echo "[build] $(tail -n 1 build.log 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g')"; }
  if [ -x "$src/configure" ]; then
    say "[build] ./configure"
    watch last sh -c 'cd "$1" && ./configure >"$2" 2>&1' sh "$src" "$stage/build.log" ||
      fail "configure of $url failed: $(tail -n 2 build.log | tr '\n' ' ')"
  fi
  say "[build] make -j$(nproc) in $(basename "$src")"
  watch last sh -c 'make -C "$1" -j"$(nproc)" >"$2" 2>&1' sh "$src" "$stage/build.log" ||
    fail "the build of $url failed: $(tail -n 2 build.log | tr '\n' ' ')"
  bin=$(find "$src" -type f -name "$program" | head -n 1)
  [ -n "$bin" ] || fail "the build of $url made no $program"
  origin=build
  say "[build] done"
fi
mv "$bin" "$program" && chmod 755 "$program" && rm -rf tree pkg pkg.* build.log ||
  fail "cannot stage $program"
echo @@stage; echo "$stage"
echo @@origin; echo $origin
echo @@sha256; sha256sum "$program" | cut -d' ' -f1
echo @@archive_sha256; echo "$archive_sum"
echo @@checksum; echo $checksum
echo @@header; od -An -tx1 -N20 "$program"
)sh";

// $1 manifest, $2 staged directory, $3 final directory: the one step that publishes a version.
constexpr const char* kCommitScript =
    R"sh(printf '%s\n' "$1" >"$2/dfbench-install.json" && rm -rf "$3" && mv "$2" "$3")sh";

std::string FirstLine(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// "7f 45 4c 46 ..." as bytes.
std::string FromHex(const std::string& hex) {
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); ++i) {
    if (std::isxdigit(static_cast<unsigned char>(hex[i])) &&
        std::isxdigit(static_cast<unsigned char>(hex[i + 1]))) {
      bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
      ++i;
    }
  }
  return bytes;
}

tl::unexpected<core::Error> Discard(hosts::Host& host, const std::string& stage,
                                    core::Error error) {
  (void)host.Run({.argv = {"rm", "-rf", stage}, .timeout = seconds(60)});
  return tl::unexpected(std::move(error));
}

}  // namespace

core::Result<CachedEngine> InstallIntoCache(hosts::Host& host, const EngineSpec& spec,
                                            const CacheTarget& target) {
  const std::string name = target.label + "-" + hosts::CanonicalArch(target.arch);
  const std::string what = "installing " + spec.name + " from " + target.url;
  auto r = host.Run({.argv = {"sh", "-c", kFetchScript, "sh", target.root, spec.name, name,
                              target.url, target.pattern, spec.program, target.refresh ? "1" : "0"},
                     .timeout = minutes(60),
                     .stream_stderr = true});
  if (!r) return tl::unexpected(core::WithContext(r.error(), what + " on " + host.Name()));
  auto s = hosts::SplitSections(r->out);
  if (auto e = r->out.find("@@error "); e != std::string::npos) {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot install " + spec.name + " on " +
                                                         host.Name() + ": " +
                                                         FirstLine(r->out.substr(e + 8)));
  }
  if (!r->status.ok()) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      what + " on " + host.Name() + " failed (" + r->status.Describe() + ")");
  }
  CachedEngine cached;
  if (s.count("cached")) {
    cached.dir = FirstLine(s["cached"]);
    cached.binary = cached.dir + "/" + spec.program;
    cached.reused = true;
    auto manifest = nlohmann::json::parse(s["manifest"], nullptr, false);
    if (manifest.is_object()) {
      cached.origin = CachedOrigin(manifest);
      cached.sha256 = manifest.value("sha256", "");
      cached.checksum_verified = manifest.value("checksum", "") == "verified";
    }
    return cached;
  }
  const std::string stage = FirstLine(s["stage"]);
  cached.dir = target.root + "/" + spec.name + "/" + name;
  cached.binary = cached.dir + "/" + spec.program;
  cached.origin = FirstLine(s["origin"]);
  cached.sha256 = FirstLine(s["sha256"]);
  cached.checksum_verified = FirstLine(s["checksum"]) == "verified";

  const std::string arch = ElfArch(FromHex(s["header"]));
  if (arch != hosts::CanonicalArch(target.arch)) {
    return Discard(host, stage,
                   core::Error{core::ErrorKind::kEnvironment,
                               "cannot install " + spec.name + " on " + host.Name() + ": " +
                                   target.url + " holds " +
                                   (arch.empty() ? "a " + spec.program + " that is not ELF"
                                                 : "a binary built for " + arch) +
                                   ", but the host is " + target.arch});
  }
  auto version = ProbeVersion(host, stage + "/" + spec.program, spec);
  if (!version) {
    return Discard(
        host, stage,
        core::Error{version.error().kind, "cannot install " + spec.name + " on " + host.Name() +
                                              ": the " + spec.program + " of " + target.url +
                                              " does not run: " + version.error().message});
  }
  const nlohmann::json manifest = {{"engine", spec.name},
                                   {"version", *version},
                                   {"label", target.label},
                                   {"arch", hosts::CanonicalArch(target.arch)},
                                   {"url", target.url},
                                   {"origin", cached.origin},
                                   {"sha256", cached.sha256},
                                   {"archive_sha256", FirstLine(s["archive_sha256"])},
                                   {"checksum", FirstLine(s["checksum"])},
                                   {"installed_at", core::NowIso8601()}};
  auto commit =
      host.Run({.argv = {"sh", "-c", kCommitScript, "sh", manifest.dump(), stage, cached.dir},
                .timeout = minutes(2)});
  if (!commit || !commit->status.ok()) {
    return Discard(
        host, stage,
        core::Error{core::ErrorKind::kEnvironment,
                    "cannot move " + stage + " to " + cached.dir + " on " + host.Name() + ": " +
                        (commit ? FirstLine(commit->err) : commit.error().message)});
  }
  core::Notef("{}: {} {} cached in {} (sha256 {}, {})", host.Name(), spec.name, *version,
              cached.dir, cached.sha256.substr(0, 12),
              cached.checksum_verified ? "checksum verified" : "no published checksum");
  return cached;
}

std::string CachedOrigin(const nlohmann::json& manifest) {
  std::string origin = manifest.is_object() ? manifest.value("origin", "") : "";
  // Manifests written before the rule called every downloaded binary a release.
  if (origin == "release" && manifest.value("checksum", "") != "verified") origin = "download";
  return origin;
}

std::vector<CacheEntry> ListCache(const std::filesystem::path& root) {
  std::vector<CacheEntry> entries;
  std::error_code ec;
  for (const auto& engine : std::filesystem::directory_iterator(root, ec)) {
    if (!engine.is_directory()) continue;
    std::error_code inner;
    for (const auto& dir : std::filesystem::directory_iterator(engine.path(), inner)) {
      if (!dir.is_directory()) continue;
      CacheEntry e{.engine = engine.path().filename().string(),
                   .name = dir.path().filename().string(),
                   .dir = dir.path()};
      auto text = core::ReadFile(dir.path() / kCacheManifest);
      if (text) {
        auto manifest = nlohmann::json::parse(*text, nullptr, false);
        if (manifest.is_object()) {
          e.complete = true;
          e.manifest = std::move(manifest);
        }
      }
      std::error_code size_ec;
      for (const auto& f : std::filesystem::recursive_directory_iterator(dir.path(), size_ec)) {
        std::error_code file_ec;
        if (f.is_regular_file(file_ec)) e.bytes += f.file_size(file_ec);
      }
      entries.push_back(std::move(e));
    }
  }
  std::sort(entries.begin(), entries.end(), [](const CacheEntry& a, const CacheEntry& b) {
    return std::tie(a.engine, a.name) < std::tie(b.engine, b.name);
  });
  return entries;
}

}  // namespace dfbench::engines
