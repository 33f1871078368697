// The pure half of installing engines: OS detection, version specs, release URLs, ELF
// architecture checks and the choice of an install method.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engines/install.h"
#include "hosts/remote_facts.h"

namespace dfbench::engines {
namespace {

std::string Unquote(std::string s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return s.substr(1, s.size() - 2);
  }
  return s;
}

int MajorVersion(const std::string& version_id) {
  try {
    return std::stoi(version_id);
  } catch (...) {
    return 0;
  }
}

bool SupportedReleaseArch(const std::string& arch) {
  const std::string a = hosts::CanonicalArch(arch);
  return a == "x86_64" || a == "aarch64";
}

// FNV-1a: stable across builds, so a URL keeps naming the same install directory.
std::string StableHash(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// http:// is refused except to this machine: a mirror or a test server on the loopback.
bool IsLoopbackUrl(const std::string& url) {
  for (const char* host : {"http://127.0.0.1", "http://localhost", "http://[::1]"}) {
    const std::string h = host;
    if (url.rfind(h, 0) == 0 &&
        (url.size() == h.size() || url[h.size()] == ':' || url[h.size()] == '/')) {
      return true;
    }
  }
  return false;
}

std::string How(const EngineSpec& spec) {
  return "install " + spec.program + " on the host yourself, or pass --" + spec.name +
         "_binary PATH";
}

// The newest release of `engine` this version of dfbench knows: what `latest` means where the
// project publishes no "latest" link.
std::string KnownRelease(const std::string& engine) {
  if (engine == "valkey") return kValkeyRelease;
  if (engine == "memcached") return kMemcachedRelease;
  return kRedisRelease;
}

// Redis, Valkey or memcached at a tag (or latest): Valkey's build for the host's OS and arch
// where there is one, else the source release built on the host.
InstallPlan PlanPinnedRelease(const EngineSpec& spec, const VersionSpec& version,
                              const HostOffer& offer) {
  InstallPlan plan;
  const std::string tag =
      version.kind == VersionSpec::Kind::kTag ? version.value : KnownRelease(spec.name);
  plan.label = tag;
  const std::string build = ValkeyBuildFor(offer.os);
  if (spec.name == "valkey" && !build.empty() && SupportedReleaseArch(offer.arch)) {
    plan.method = InstallMethod::kReleaseTarball;
    plan.url = ValkeyReleaseUrl(tag, build, offer.arch);
    return plan;
  }
  plan.method = InstallMethod::kSourceBuild;
  plan.url = SourceReleaseUrl(spec.name, tag);
  return plan;
}

}  // namespace

OsRelease ParseOsRelease(const std::string& text) {
  OsRelease os;
  os.id = Unquote(hosts::FieldOf(text, "ID", '='));
  os.version_id = Unquote(hosts::FieldOf(text, "VERSION_ID", '='));
  os.codename = Unquote(hosts::FieldOf(text, "VERSION_CODENAME", '='));
  if (os.codename.empty()) os.codename = Unquote(hosts::FieldOf(text, "UBUNTU_CODENAME", '='));
  os.pretty = Unquote(hosts::FieldOf(text, "PRETTY_NAME", '='));
  std::istringstream like(Unquote(hosts::FieldOf(text, "ID_LIKE", '=')));
  std::string word;
  while (like >> word) os.id_like.push_back(word);
  return os;
}

bool IsDebianLike(const OsRelease& os) {
  if (os.id == "debian" || os.id == "ubuntu") return true;
  for (const auto& l : os.id_like) {
    if (l == "debian" || l == "ubuntu") return true;
  }
  return false;
}

std::string ValkeyBuildFor(const OsRelease& os) {
  const int major = MajorVersion(os.version_id);
  if (os.id == "ubuntu") {
    if (major >= 24) return "noble";
    if (major >= 22) return "jammy";
    if (major >= 20) return "focal";
    return "";
  }
  if (os.id == "debian") {  // glibc 2.31 (11), 2.36 (12), 2.41 (13)
    if (major >= 13) return "noble";
    if (major == 12) return "jammy";
    if (major == 11) return "focal";
  }
  return "";
}

core::Result<VersionSpec> ParseVersionSpec(const std::string& text, const std::string& engine) {
  const std::string flag = "--" + engine + "_version " + text;
  if (text.empty()) return VersionSpec{};
  if (text == "system") return VersionSpec{VersionSpec::Kind::kSystem, text};
  if (text == "latest") return VersionSpec{VersionSpec::Kind::kLatest, text};
  if (text.rfind("https://", 0) == 0) return VersionSpec{VersionSpec::Kind::kUrl, text};
  if (text.rfind("http://", 0) == 0) {
    if (IsLoopbackUrl(text)) return VersionSpec{VersionSpec::Kind::kUrl, text};
    return core::Fail(core::ErrorKind::kUsage, flag + ": use an https:// URL");
  }
  const bool tag_like = text.find('/') == std::string::npos &&
                        text.find_first_not_of("v0123456789.-rcRC") == std::string::npos &&
                        text.find_first_of("0123456789") != std::string::npos;
  if (tag_like && !std::filesystem::exists(text)) {
    std::string bare = text.front() == 'v' ? text.substr(1) : text;
    return VersionSpec{VersionSpec::Kind::kTag, engine == "dragonfly" ? "v" + bare : bare};
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(text, ec)) {
    return core::Fail(core::ErrorKind::kUsage, flag + ": not a release tag (" +
                                                   (engine == "dragonfly" ? "v1.31.0" : "8.0.2") +
                                                   "), latest, system, an https:// URL or a file");
  }
  auto absolute = std::filesystem::absolute(text, ec);
  return VersionSpec{VersionSpec::Kind::kLocalFile,
                     ec ? text : absolute.lexically_normal().string()};
}

std::string ReleaseBase(const std::string& engine) {
  std::string upper;
  for (char c : engine) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (const char* env = std::getenv(("DFBENCH_" + upper + "_RELEASES").c_str()); env && *env) {
    std::string base = env;
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
  }
  if (engine == "dragonfly") return "https://github.com/dragonflydb/dragonfly/releases";
  if (engine == "valkey") return "https://download.valkey.io/releases";
  if (engine == "memcached") return "https://memcached.org/files";
  return "https://download.redis.io/releases";
}

core::Result<std::string> DragonflyReleaseUrl(const VersionSpec& version, const std::string& arch) {
  if (version.kind == VersionSpec::Kind::kUrl) return version.value;
  const std::string a = hosts::CanonicalArch(arch);
  if (!SupportedReleaseArch(a)) {
    return core::Fail(core::ErrorKind::kUsage,
                      "Dragonfly releases exist for x86_64 and aarch64, not " + arch);
  }
  const std::string base = ReleaseBase("dragonfly") + "/";
  const std::string file = "dragonfly-" + a + ".tar.gz";
  if (version.kind == VersionSpec::Kind::kTag)
    return base + "download/" + version.value + "/" + file;
  return base + "latest/download/" + file;
}

std::string ValkeyReleaseUrl(const std::string& version, const std::string& build,
                             const std::string& arch) {
  const std::string a = hosts::CanonicalArch(arch) == "aarch64" ? "arm64" : "x86_64";
  return ReleaseBase("valkey") + "/valkey-" + version + "-" + build + "-" + a + ".tar.gz";
}

std::string SourceReleaseUrl(const std::string& engine, const std::string& version) {
  return ReleaseBase(engine) + "/" + engine + "-" + version + ".tar.gz";
}

std::string OriginOf(const std::string& method) {
  if (method == "release" || method == "upload") return "release";
  if (method == "source") return "build";
  return "system";
}

std::string ElfArch(std::string_view h) {
  if (h.size() < 20 || h.substr(0, 4) !=
                           "\x7f"
                           "ELF")
    return "";
  const bool big_endian = static_cast<unsigned char>(h[5]) == 2;
  const auto b0 = static_cast<unsigned char>(h[18]), b1 = static_cast<unsigned char>(h[19]);
  const int machine = big_endian ? (b0 << 8 | b1) : (b1 << 8 | b0);
  switch (machine) {
    case 3:
      return "i386";
    case 40:
      return "arm";
    case 62:
      return "x86_64";
    case 183:
      return "aarch64";
    case 243:
      return "riscv64";
    case 21:
      return big_endian ? "ppc64" : "ppc64le";
    case 22:
      return "s390x";
    default:
      return "machine-" + std::to_string(machine);
  }
}

core::Status CheckElfArch(const std::filesystem::path& file, const std::string& host_arch) {
  std::ifstream in(file, std::ios::binary);
  char header[64] = {};
  in.read(header, sizeof(header));
  const std::string arch = ElfArch(std::string_view(header, static_cast<size_t>(in.gcount())));
  if (arch.empty()) {
    return core::Fail(core::ErrorKind::kUsage,
                      file.string() + " is not an ELF executable (nor a .tar.gz holding one)");
  }
  if (arch != hosts::CanonicalArch(host_arch)) {
    return core::Fail(core::ErrorKind::kUsage,
                      file.string() + " is built for " + arch + ", but the host is " + host_arch);
  }
  return core::Ok();
}

InstallPlan PlanInstall(const EngineSpec& spec, const VersionSpec& version,
                        const HostOffer& offer) {
  InstallPlan plan;
  using Kind = VersionSpec::Kind;
  const bool dragonfly = spec.versioned_builds;
  const bool specific = version.kind != Kind::kAny && version.kind != Kind::kSystem;
  if (offer.on_path && !specific) {
    plan.method = InstallMethod::kPresent;
    return plan;
  }
  const std::string os = offer.os.pretty.empty() ? "this OS" : offer.os.pretty;
  if (version.kind == Kind::kLocalFile) {
    plan.method = InstallMethod::kUpload;
    return plan;
  }
  if (version.kind == Kind::kUrl) {
    plan.method = InstallMethod::kReleaseTarball;
    plan.url = version.value;
    plan.label = "url-" + StableHash(version.value);
    return plan;
  }
  if (dragonfly && version.kind != Kind::kSystem) {
    auto url = DragonflyReleaseUrl(version, offer.arch);
    if (!url) {
      plan.reason = url.error().message + "; pass --dragonfly_version with a local build";
      return plan;
    }
    plan.method = InstallMethod::kReleaseTarball;
    plan.url = *url;
    plan.label = version.kind == Kind::kTag ? version.value : "latest";
    return plan;
  }
  if (specific) return PlanPinnedRelease(spec, version, offer);
  if (!offer.package_candidate.empty()) {
    plan.method = InstallMethod::kOsPackage;
    plan.package = spec.program == "memcached" ? "memcached" : spec.program;
    return plan;
  }
  if (version.kind == Kind::kSystem) {
    plan.reason = spec.program + " is neither on PATH nor packaged for " + os + "; " + How(spec);
    return plan;
  }
  if (!IsDebianLike(offer.os)) {
    plan.reason = "dfbench installs " + spec.name + " on Debian and Ubuntu only, not on " + os +
                  "; " + How(spec);
    return plan;
  }
  if (spec.name == "valkey") {
    if (ValkeyBuildFor(offer.os).empty() || !SupportedReleaseArch(offer.arch)) {
      plan.reason = "no valkey-server package and no Valkey release build for " + os + " (" +
                    offer.arch + "); " + How(spec);
      return plan;
    }
    return PlanPinnedRelease(spec, {Kind::kTag, kValkeyRelease}, offer);
  }
  if (spec.name == "redis") return PlanPinnedRelease(spec, {Kind::kTag, kRedisRelease}, offer);
  plan.reason = "no " + spec.program + " package on " + os + "; " + How(spec);
  return plan;
}

std::string MethodName(InstallMethod method) {
  switch (method) {
    case InstallMethod::kPresent:
      return "present";
    case InstallMethod::kOsPackage:
      return "apt";
    case InstallMethod::kReleaseTarball:
      return "release";
    case InstallMethod::kSourceBuild:
      return "source";
    case InstallMethod::kUpload:
      return "upload";
    case InstallMethod::kImpossible:
      return "none";
  }
  return "none";
}

}  // namespace dfbench::engines
