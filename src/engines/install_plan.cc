// The pure half of installing engines: OS detection, version specs, release URLs, ELF
// architecture checks and the choice of an install method.
#include <cstdio>
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

std::string How(const EngineSpec& spec) {
  return "install " + spec.program + " on the host yourself, or pass --" + spec.name +
         "_binary PATH";
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

core::Result<VersionSpec> ParseVersionSpec(const std::string& text) {
  if (text.empty()) return VersionSpec{};
  if (text == "latest") return VersionSpec{VersionSpec::Kind::kLatest, text};
  if (text.rfind("https://", 0) == 0) return VersionSpec{VersionSpec::Kind::kUrl, text};
  if (text.rfind("http://", 0) == 0) {
    return core::Fail(core::ErrorKind::kUsage,
                      "--dragonfly_version " + text + ": use an https:// URL");
  }
  const bool tag_like = text.find('/') == std::string::npos &&
                        text.find_first_not_of("v0123456789.-rcRC") == std::string::npos &&
                        text.find_first_of("0123456789") != std::string::npos;
  if (tag_like && !std::filesystem::exists(text)) {
    return VersionSpec{VersionSpec::Kind::kTag, text.front() == 'v' ? text : "v" + text};
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(text, ec)) {
    return core::Fail(core::ErrorKind::kUsage,
                      "--dragonfly_version " + text +
                          ": not a release tag (v1.31.0), latest, an https:// URL or a file");
  }
  auto absolute = std::filesystem::absolute(text, ec);
  return VersionSpec{VersionSpec::Kind::kLocalFile,
                     ec ? text : absolute.lexically_normal().string()};
}

core::Result<std::string> DragonflyReleaseUrl(const VersionSpec& version, const std::string& arch) {
  if (version.kind == VersionSpec::Kind::kUrl) return version.value;
  const std::string a = hosts::CanonicalArch(arch);
  if (!SupportedReleaseArch(a)) {
    return core::Fail(core::ErrorKind::kUsage,
                      "Dragonfly releases exist for x86_64 and aarch64, not " + arch);
  }
  const std::string base = "https://github.com/dragonflydb/dragonfly/releases/";
  const std::string file = "dragonfly-" + a + ".tar.gz";
  if (version.kind == VersionSpec::Kind::kTag)
    return base + "download/" + version.value + "/" + file;
  return base + "latest/download/" + file;
}

std::string ValkeyReleaseUrl(const std::string& version, const std::string& build,
                             const std::string& arch) {
  const std::string a = hosts::CanonicalArch(arch) == "aarch64" ? "arm64" : "x86_64";
  return "https://download.valkey.io/releases/valkey-" + version + "-" + build + "-" + a +
         ".tar.gz";
}

std::string RedisSourceUrl(const std::string& version) {
  return "https://download.redis.io/releases/redis-" + version + ".tar.gz";
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
  const bool dragonfly = spec.versioned_builds;
  const bool specific = dragonfly && version.kind != VersionSpec::Kind::kAny;
  if (offer.on_path && !specific) {
    plan.method = InstallMethod::kPresent;
    return plan;
  }
  const std::string os = offer.os.pretty.empty() ? "this OS" : offer.os.pretty;
  if (dragonfly) {
    if (version.kind == VersionSpec::Kind::kLocalFile) {
      plan.method = InstallMethod::kUpload;
      return plan;
    }
    auto url = DragonflyReleaseUrl(version, offer.arch);
    if (!url) {
      plan.reason = url.error().message + "; pass --dragonfly_version with a local build";
      return plan;
    }
    plan.method = InstallMethod::kReleaseTarball;
    plan.url = *url;
    plan.label = version.kind == VersionSpec::Kind::kTag   ? version.value
                 : version.kind == VersionSpec::Kind::kUrl ? "url-" + StableHash(version.value)
                                                           : "latest";
    return plan;
  }
  if (!offer.package_candidate.empty()) {
    plan.method = InstallMethod::kOsPackage;
    plan.package = spec.program == "memcached" ? "memcached" : spec.program;
    return plan;
  }
  if (!IsDebianLike(offer.os)) {
    plan.reason = "dfbench installs " + spec.name + " on Debian and Ubuntu only, not on " + os +
                  "; " + How(spec);
    return plan;
  }
  if (spec.name == "valkey") {
    const std::string build = ValkeyBuildFor(offer.os);
    if (build.empty() || !SupportedReleaseArch(offer.arch)) {
      plan.reason = "no valkey-server package and no Valkey release build for " + os + " (" +
                    offer.arch + "); " + How(spec);
      return plan;
    }
    plan.method = InstallMethod::kReleaseTarball;
    plan.url = ValkeyReleaseUrl(kValkeyRelease, build, offer.arch);
    plan.label = std::string("valkey-") + kValkeyRelease;
    return plan;
  }
  if (spec.name == "redis") {
    plan.method = InstallMethod::kSourceBuild;
    plan.url = RedisSourceUrl(kRedisRelease);
    plan.label = std::string("redis-") + kRedisRelease;
    return plan;
  }
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
