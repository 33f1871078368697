// Carrying out an install plan on a host: one probe round trip, then apt-get, or a download,
// source build or upload into the engine cache, and the installed binary's version.
#include "engines/install.h"

#include <unistd.h>

#include <atomic>

#include "core/files.h"
#include "core/log.h"
#include "core/subprocess.h"
#include "engines/engine_cache.h"
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
echo @@home; printf '%s\n' "$HOME"
exit 0
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
  std::string home;        // $HOME of the login user
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
  p.home = first(s["home"]);
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

// A local build (raw binary or .tar.gz) as one checked ELF file on this machine, or a .tar.gz of
// a source tree as it is (built on the host by the cache).
core::Result<std::filesystem::path> LocalBinary(const std::filesystem::path& file,
                                                const std::string& host_arch,
                                                const EngineSpec& spec,
                                                std::filesystem::path* scratch) {
  auto head = core::ReadFileHead(file, 2);
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
      if (e.is_regular_file() && e.path().filename().string().rfind(spec.program, 0) == 0) {
        binary = e.path();
        break;
      }
    }
    if (binary.empty()) {
      // A source tree (a Makefile at its top): the archive goes to the host as it is, and the
      // engine cache builds it there.
      for (auto it = std::filesystem::recursive_directory_iterator(*scratch, ec);
           it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it.depth() < 2 && it->path().filename() == "Makefile") return file;
      }
      return core::Fail(core::ErrorKind::kUsage, file.string() + " holds no " + spec.program +
                                                     "* file and no source tree with a Makefile");
    }
  }
  if (auto st = CheckElfArch(binary, host_arch); !st) return tl::unexpected(st.error());
  return binary;
}

// A local file (a raw binary or a .tar.gz), checked here and copied to the host's work
// directory, whence the cache takes it as a file:// URL. Its label names it by content.
struct Uploaded {
  std::string url;
  std::string label;
};
core::Result<Uploaded> Upload(hosts::Host& host, const std::filesystem::path& file,
                              const std::string& arch, const EngineSpec& spec) {
  std::filesystem::path scratch;
  auto cleanup = [&] {
    std::error_code ec;
    if (!scratch.empty()) std::filesystem::remove_all(scratch, ec);
  };
  auto binary = LocalBinary(file, arch, spec, &scratch);
  if (!binary) {
    cleanup();
    return tl::unexpected(binary.error());
  }
  auto digest = hosts::Sha256File(*binary);
  auto work = host.WorkDir();
  if (!digest || !work) {
    cleanup();
    return tl::unexpected(!digest ? digest.error() : work.error());
  }
  const std::string remote = *work + "/upload-" + digest->substr(0, 12) + "/" + spec.program;
  core::Notef("{}: uploading {}", host.Name(), file.string());
  auto st = host.Upload(*binary, remote, 0755);
  cleanup();
  if (!st) return tl::unexpected(st.error());
  return Uploaded{.url = "file://" + remote, .label = "file-" + digest->substr(0, 12)};
}

// Reads the version of the binary `installed` names; kEnvironment when it does not run.
core::Result<InstalledEngine> WithVersion(hosts::Host& host, const EngineSpec& spec,
                                          InstalledEngine installed) {
  auto version = ProbeVersion(host, installed.binary, spec);
  if (!version) {
    return core::Fail(version.error().kind, spec.name + " on " + host.Name() +
                                                " does not run: " + version.error().message);
  }
  installed.version = *version;
  installed.origin = OriginOf(installed.method);
  return installed;
}

core::Result<InstalledEngine> UseExplicitBinary(hosts::Host& host, const EngineSpec& spec,
                                                const std::string& path) {
  auto found = host.Which(path);
  if (!found) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        "--" + spec.name + "_binary " + path + ": not an executable file on " + host.Name());
  }
  return WithVersion(host, spec, {.binary = *found, .method = "binary", .source = path});
}

// The host's offer and the plan for it. Fresh cloud images ship without package lists: they
// are fetched once before deciding.
core::Result<std::pair<Probe, InstallPlan>> ProbeAndPlan(hosts::Host& host, const EngineSpec& spec,
                                                         const VersionSpec& version) {
  auto probe = ProbeHost(host, spec);
  if (!probe) return tl::unexpected(probe.error());
  InstallPlan plan = PlanInstall(spec, version, probe->offer);
  if (plan.method != InstallMethod::kOsPackage && plan.method != InstallMethod::kImpossible) {
    return std::pair{*probe, plan};
  }
  if (IsDebianLike(probe->offer.os) && !probe->offer.package_lists && !spec.versioned_builds) {
    core::Notef("{}: apt-get update", host.Name());
    if (auto st = Step(host, "apt-get update", AptArgv(host, probe->root, {"update", "-q"}),
                       minutes(10), probe->root);
        !st) {
      return tl::unexpected(st.error());
    }
    probe = ProbeHost(host, spec);
    if (!probe) return tl::unexpected(probe.error());
    plan = PlanInstall(spec, version, probe->offer);
  }
  return std::pair{*probe, plan};
}

core::Result<InstalledEngine> InstallPackage(hosts::Host& host, const EngineSpec& spec,
                                             const Probe& probe, const std::string& package) {
  if (auto st = AptInstall(host, probe.root, package); !st) return tl::unexpected(st.error());
  auto found = host.Which(spec.program);
  if (!found) {
    return core::Fail(core::ErrorKind::kEnvironment, "apt-get installed " + package + " on " +
                                                         host.Name() + " but " + spec.program +
                                                         " is not on PATH");
  }
  return WithVersion(host, spec, {.binary = *found, .method = "apt", .source = package});
}

// A release archive, a source release or an uploaded file, through the host's engine cache.
core::Result<InstalledEngine> InstallThroughCache(hosts::Host& host, const EngineSpec& spec,
                                                  const InstallRequest& request, const Probe& probe,
                                                  const InstallPlan& plan) {
  CacheTarget target{.root = request.cache_root.empty() ? probe.home + "/.dfbench/cache/engines"
                                                        : request.cache_root,
                     .label = plan.label,
                     .arch = probe.offer.arch,
                     .url = plan.url,
                     .pattern = spec.releases.archive_binary,
                     .refresh = plan.label == "latest"};
  InstalledEngine installed{.method = MethodName(plan.method), .source = plan.url};
  if (plan.method == InstallMethod::kUpload) {
    auto uploaded = Upload(host, request.version.value, probe.offer.arch, spec);
    if (!uploaded) return tl::unexpected(uploaded.error());
    target.url = uploaded->url;
    target.label = uploaded->label;
    installed.source = request.version.value;
  }
  if (plan.method == InstallMethod::kSourceBuild && !probe.can_build &&
      request.install_build_tools && IsDebianLike(probe.offer.os)) {
    if (auto st = AptInstall(host, probe.root, "build-essential"); !st) {
      return tl::unexpected(st.error());
    }
  }
  auto cached = InstallIntoCache(host, spec, target);
  if (!cached) return tl::unexpected(cached.error());
  installed.binary = cached->binary;
  installed.sha256 = cached->sha256;
  installed.checksum_verified = cached->checksum_verified;
  // The archive decides: a source tree is built whatever the plan expected; a version found in
  // the cache may also be a build `dfbench cache add` put there.
  if (plan.method != InstallMethod::kUpload) {
    installed.method = cached->origin == "build"   ? "source"
                       : cached->origin == "local" ? "local"
                                                   : "release";
  }
  if (cached->reused) {
    core::Notef("{}: {} from the cache {}{}", host.Name(), spec.name, cached->dir,
                cached->origin == "download" ? " (downloaded from " + target.url +
                                                   " with no published checksum to verify it)"
                                             : "");
  }
  auto done = WithVersion(host, spec, installed);
  // The cache knows how the binary came to be: an uploaded source tree was built there.
  if (done) done->origin = cached->origin;
  return done;
}

}  // namespace

core::Result<InstalledEngine> EnsureInstalled(hosts::Host& host, const EngineSpec& spec,
                                              const InstallRequest& request) {
  if (!request.explicit_binary.empty()) {
    return UseExplicitBinary(host, spec, request.explicit_binary);
  }
  auto planned = ProbeAndPlan(host, spec, request.version);
  if (!planned) return tl::unexpected(planned.error());
  const auto& [probe, plan] = *planned;
  switch (plan.method) {
    case InstallMethod::kPresent:
      return WithVersion(
          host, spec,
          {.binary = *probe.offer.on_path, .method = "present", .source = *probe.offer.on_path});
    case InstallMethod::kOsPackage:
      return InstallPackage(host, spec, probe, plan.package);
    case InstallMethod::kSourceBuild:
    case InstallMethod::kReleaseTarball:
    case InstallMethod::kUpload:
      return InstallThroughCache(host, spec, request, probe, plan);
    case InstallMethod::kImpossible:
      break;
  }
  return core::Fail(core::ErrorKind::kEnvironment,
                    "cannot install " + spec.name + " on " + host.Name() + ": " + plan.reason);
}

}  // namespace dfbench::engines
