// Carrying out an install plan on a host: one probe round trip, then apt-get, a download, a
// source build or an upload, and the installed binary's version.
#include "engines/install.h"

#include <unistd.h>

#include <atomic>

#include "core/files.h"
#include "core/log.h"
#include "core/subprocess.h"
#include "hosts/digest.h"
#include "hosts/remote_facts.h"
#include "hosts/ssh_command.h"

namespace dfbench::engines {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

// $1 program, $2 package: what the host offers.
constexpr const char* kProbeScript = R"sh(echo @@os; cat /etc/os-release 2>/dev/null
echo @@arch; uname -m
echo @@path; PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin" command -v "$1" 2>/dev/null
echo @@candidate
if command -v apt-cache >/dev/null 2>&1; then
  LC_ALL=C apt-cache policy "$2" 2>/dev/null | sed -n 's/^ *Candidate: *//p'
fi
echo @@lists; ls /var/lib/apt/lists/ 2>/dev/null | grep -c '_Packages' || true
echo @@tools; for t in make cc; do command -v $t >/dev/null 2>&1 && echo $t; done
echo @@uid; id -u
exit 0
)sh";

// $1 install dir, $2 URL, $3 file name pattern, $4 program: downloads a .tar.gz release and
// keeps the one file matching the pattern as <dir>/<program>.
constexpr const char* kDownloadScript = R"sh(dir=$1; url=$2; pattern=$3; program=$4
tmp="$dir.tmp"
rm -rf "$tmp" "$dir.new" && mkdir -p "$tmp" || exit 1
cd "$tmp" || exit 1
if command -v curl >/dev/null 2>&1; then
  curl -fsSL --retry 2 --connect-timeout 20 -o pkg.tar.gz "$url" || { echo "download of $url failed" >&2; exit 3; }
elif command -v wget >/dev/null 2>&1; then
  wget -q -T 20 -O pkg.tar.gz "$url" || { echo "download of $url failed" >&2; exit 3; }
else
  echo "neither curl nor wget is installed" >&2; exit 4
fi
if [ -n "$pattern" ]; then
  tar -xzf pkg.tar.gz || { echo "$url is not a .tar.gz" >&2; exit 5; }
  f=$(find . -type f -name "$pattern" ! -name pkg.tar.gz | head -n 1)
  [ -n "$f" ] || { echo "no $pattern in $url" >&2; exit 6; }
  chmod 755 "$f" && mkdir -p "$dir.new" && mv -f "$f" "$dir.new/$program" || exit 7
else
  tar -xzf pkg.tar.gz || { echo "$url is not a .tar.gz" >&2; exit 5; }
  src=$(find . -maxdepth 1 -type d -name 'redis-*' | head -n 1)
  [ -n "$src" ] || { echo "no redis source in $url" >&2; exit 6; }
  (cd "$src" && make -j"$(nproc)" >build.log 2>&1) || { tail -n 20 "$src/build.log" >&2; exit 8; }
  mkdir -p "$dir.new" && cp "$src/src/redis-server" "$dir.new/$program" || exit 7
fi
cd / && rm -rf "$dir" "$tmp" && mv "$dir.new" "$dir"
)sh";

std::string FirstLines(const std::string& text, int n = 3) {
  std::string out;
  size_t pos = 0;
  for (int i = 0; i < n && pos < text.size(); ++i) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    if (!line.empty()) out += (out.empty() ? "" : "; ") + line;
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

struct Probe {
  HostOffer offer;
  bool root = false;
  bool can_build = false;  // make and a C compiler
};

core::Result<Probe> ProbeHost(hosts::Host& host, const EngineSpec& spec) {
  auto r = host.Run({.argv = {"sh", "-c", kProbeScript, "sh", spec.program, spec.program},
                     .timeout = seconds(60)});
  if (!r) return tl::unexpected(r.error());
  auto s = hosts::SplitSections(r->out);
  auto first = [](const std::string& text) { return text.substr(0, text.find('\n')); };
  Probe p;
  p.offer.os = ParseOsRelease(s["os"]);
  p.offer.arch = first(s["arch"]);
  if (std::string path = first(s["path"]); !path.empty() && path.front() == '/') {
    p.offer.on_path = path;
  }
  std::string candidate = first(s["candidate"]);
  if (candidate != "(none)") p.offer.package_candidate = candidate;
  p.offer.package_lists = first(s["lists"]) != "0" && !first(s["lists"]).empty();
  p.root = first(s["uid"]) == "0";
  p.can_build =
      s["tools"].find("make") != std::string::npos && s["tools"].find("cc") != std::string::npos;
  return p;
}

std::vector<std::string> AsRoot(bool root, std::vector<std::string> argv) {
  return hosts::PrivilegedArgv(root, std::move(argv));
}

// Runs a step; kEnvironment "<what> on <host> failed: <first lines of stderr>" on non-zero exit.
core::Status Step(hosts::Host& host, const std::string& what, std::vector<std::string> argv,
                  std::chrono::milliseconds timeout, bool root) {
  auto r = host.Run({.argv = std::move(argv), .timeout = timeout});
  if (!r) return tl::unexpected(core::WithContext(r.error(), what + " on " + host.Name()));
  if (r->status.ok()) return core::Ok();
  std::string why = FirstLines(r->err.empty() ? r->out : r->err);
  if (!root && why.find("sudo") != std::string::npos) {
    why += " (this step needs root or passwordless sudo)";
  }
  return core::Fail(core::ErrorKind::kEnvironment,
                    what + " on " + host.Name() + " failed (" + r->status.Describe() + "): " + why);
}

// apt-get in a session of its own with its output in a log on the host: stopping dfbench
// (Ctrl+C, a lost connection) kills the waiting wrapper, never dpkg half-way through the host's
// package database. A lock held by unattended upgrades is waited for.
std::vector<std::string> AptArgv(hosts::Host& host, bool root,
                                 const std::vector<std::string>& args) {
  const std::string log = host.WorkDir().value_or("/tmp") + "/apt.log";
  std::vector<std::string> apt = {"env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o",
                                  "DPkg::Lock::Timeout=300"};
  apt.insert(apt.end(), args.begin(), args.end());
  std::vector<std::string> argv = {
      "setsid",
      "-w",
      "sh",
      "-c",
      R"sh("$@" >"$0" 2>&1; s=$?; [ $s -eq 0 ] || tail -n 5 "$0" >&2; exit $s)sh",
      log};
  apt = AsRoot(root, std::move(apt));
  argv.insert(argv.end(), apt.begin(), apt.end());
  return argv;
}

core::Status AptInstall(hosts::Host& host, bool root, const std::string& package) {
  core::Notef("{}: apt-get install {}", host.Name(), package);
  if (auto st =
          Step(host, "apt-get install " + package,
               AptArgv(host, root, {"install", "-y", "-q", "--no-install-recommends", package}),
               minutes(20), root);
      !st) {
    return st;
  }
  // Debian starts packaged servers; dfbench starts its own on free ports, and an idle packaged
  // one would only take CPU and memory from the benchmark.
  if (package != "build-essential") {
    (void)host.Run(
        {.argv = AsRoot(root, {"systemctl", "disable", "--now", package}), .timeout = seconds(60)});
  }
  return core::Ok();
}

// A local Dragonfly build (raw binary or .tar.gz) as one checked ELF file on this machine.
core::Result<std::filesystem::path> LocalBinary(const std::filesystem::path& file,
                                                const std::string& host_arch,
                                                std::filesystem::path* scratch) {
  auto head = core::ReadFile(file);
  if (!head) return tl::unexpected(head.error());
  std::filesystem::path binary = file;
  if (head->size() >= 2 && static_cast<unsigned char>((*head)[0]) == 0x1f &&
      static_cast<unsigned char>((*head)[1]) == 0x8b) {
    static std::atomic<int> n{0};
    *scratch = std::filesystem::temp_directory_path() /
               ("dfbench-unpack-" + std::to_string(getpid()) + "-" + std::to_string(n++));
    if (auto st = core::MakeDirs(*scratch); !st) return tl::unexpected(st.error());
    auto tar =
        core::RunCapture({"tar", "-xzf", file.string(), "-C", scratch->string()}, minutes(5));
    if (!tar || !tar->status.ok()) {
      return core::Fail(core::ErrorKind::kUsage,
                        file.string() + " is not a readable .tar.gz: " +
                            (tar ? FirstLines(tar->err) : tar.error().message));
    }
    binary.clear();
    std::error_code ec;
    for (const auto& e : std::filesystem::recursive_directory_iterator(*scratch, ec)) {
      if (e.is_regular_file() && e.path().filename().string().rfind("dragonfly", 0) == 0) {
        binary = e.path();
        break;
      }
    }
    if (binary.empty()) {
      return core::Fail(core::ErrorKind::kUsage, file.string() + " holds no dragonfly* file");
    }
  }
  if (auto st = CheckElfArch(binary, host_arch); !st) return tl::unexpected(st.error());
  return binary;
}

core::Result<std::string> Upload(hosts::Host& host, const std::string& dir_root,
                                 const std::filesystem::path& file, const std::string& arch,
                                 const EngineSpec& spec) {
  std::filesystem::path scratch;
  auto binary = LocalBinary(file, arch, &scratch);
  auto cleanup = [&] {
    std::error_code ec;
    if (!scratch.empty()) std::filesystem::remove_all(scratch, ec);
  };
  if (!binary) {
    cleanup();
    return tl::unexpected(binary.error());
  }
  auto digest = hosts::Sha256File(*binary);
  if (!digest) {
    cleanup();
    return tl::unexpected(digest.error());
  }
  const std::string remote = dir_root + "/file-" + digest->substr(0, 12) + "/" + spec.program;
  auto present = host.Run({.argv = {"test", "-x", remote}, .timeout = seconds(30)});
  if (!present || !present->status.ok()) {
    core::Notef("{}: uploading {} as {}", host.Name(), file.string(), remote);
    if (auto st = host.Upload(*binary, remote, 0755); !st) {
      cleanup();
      return tl::unexpected(st.error());
    }
  }
  cleanup();
  return remote;
}

}  // namespace

core::Result<InstalledEngine> EnsureInstalled(hosts::Host& host, const EngineSpec& spec,
                                              const InstallRequest& request) {
  InstalledEngine installed;
  auto finish = [&](const std::string& binary) -> core::Result<InstalledEngine> {
    installed.binary = binary;
    auto version = ProbeVersion(host, binary, spec);
    if (!version) {
      return core::Fail(version.error().kind, spec.name + " on " + host.Name() +
                                                  " does not run: " + version.error().message);
    }
    installed.version = *version;
    return installed;
  };
  if (!request.explicit_binary.empty()) {
    auto found = host.Which(request.explicit_binary);
    if (!found) {
      return core::Fail(core::ErrorKind::kEnvironment,
                        "--" + spec.name + "_binary " + request.explicit_binary +
                            ": not an executable file on " + host.Name());
    }
    installed.method = "binary";
    installed.source = request.explicit_binary;
    return finish(*found);
  }

  auto probe = ProbeHost(host, spec);
  if (!probe) return tl::unexpected(probe.error());
  InstallPlan plan = PlanInstall(spec, request.version, probe->offer);
  // Fresh cloud images ship without package lists: fetch them once before deciding.
  if (plan.method != InstallMethod::kPresent && plan.method != InstallMethod::kUpload &&
      IsDebianLike(probe->offer.os) && !probe->offer.package_lists && !spec.versioned_builds) {
    core::Notef("{}: apt-get update", host.Name());
    if (auto st = Step(host, "apt-get update", AptArgv(host, probe->root, {"update", "-q"}),
                       minutes(10), probe->root);
        !st) {
      return tl::unexpected(st.error());
    }
    probe = ProbeHost(host, spec);
    if (!probe) return tl::unexpected(probe.error());
    plan = PlanInstall(spec, request.version, probe->offer);
  }
  installed.method = MethodName(plan.method);
  auto work = host.WorkDir();
  if (!work) return tl::unexpected(work.error());
  const std::string dir_root = *work + "/engines/" + spec.name;

  switch (plan.method) {
    case InstallMethod::kPresent:
      installed.source = *probe->offer.on_path;
      return finish(*probe->offer.on_path);
    case InstallMethod::kOsPackage: {
      installed.source = plan.package;
      if (auto st = AptInstall(host, probe->root, plan.package); !st)
        return tl::unexpected(st.error());
      auto found = host.Which(spec.program);
      if (!found) {
        return core::Fail(core::ErrorKind::kEnvironment, "apt-get installed " + plan.package +
                                                             " on " + host.Name() + " but " +
                                                             spec.program + " is not on PATH");
      }
      return finish(*found);
    }
    case InstallMethod::kSourceBuild:
    case InstallMethod::kReleaseTarball: {
      installed.source = plan.url;
      const std::string dir = dir_root + "/" + plan.label;
      const std::string binary = dir + "/" + spec.program;
      // A pinned build already there is reused; "latest" is fetched again.
      if (plan.label != "latest") {
        auto present = host.Run({.argv = {"test", "-x", binary}, .timeout = seconds(30)});
        if (present && present->status.ok()) return finish(binary);
      }
      const bool build = plan.method == InstallMethod::kSourceBuild;
      if (build && !probe->can_build) {
        if (auto st = AptInstall(host, probe->root, "build-essential"); !st) {
          return tl::unexpected(st.error());
        }
      }
      core::Notef("{}: {} {}", host.Name(), build ? "building" : "downloading", plan.url);
      const std::string pattern = build                      ? ""
                                  : spec.name == "dragonfly" ? "dragonfly*"
                                                             : spec.program;
      if (auto st = Step(host, "installing " + spec.name + " from " + plan.url,
                         {"sh", "-c", kDownloadScript, "sh", dir, plan.url, pattern, spec.program},
                         minutes(build ? 30 : 10), true);
          !st) {
        return tl::unexpected(st.error());
      }
      return finish(binary);
    }
    case InstallMethod::kUpload: {
      installed.source = request.version.value;
      auto remote = Upload(host, dir_root, request.version.value, probe->offer.arch, spec);
      if (!remote) return tl::unexpected(remote.error());
      return finish(*remote);
    }
    case InstallMethod::kImpossible:
      break;
  }
  return core::Fail(core::ErrorKind::kEnvironment,
                    "cannot install " + spec.name + " on " + host.Name() + ": " + plan.reason);
}

}  // namespace dfbench::engines
