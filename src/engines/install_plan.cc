// The pure half of installing engines: OS detection, version specs, release URLs, ELF
// architecture checks and the choice of an install method.
#include <curl/curl.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>

#include "engines/install.h"
#include "hosts/remote_facts.h"

namespace dfbench::engines {
namespace {

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

// An http:// URL as curl, which fetches it on the host, reads it: libcurl's URL API is the
// parser of the curl command line too. nullopt when libcurl refuses the URL.
struct HttpUrlParts {
  std::string host;  // IPv4 normalised (127.1 -> 127.0.0.1), IPv6 in brackets
  bool userinfo = false;
};

std::optional<HttpUrlParts> CurlParts(const std::string& url) {
  const std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
  if (!handle || curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    return std::nullopt;
  }
  HttpUrlParts parts;
  char* host = nullptr;
  if (curl_url_get(handle.get(), CURLUPART_HOST, &host, 0) != CURLUE_OK) return std::nullopt;
  parts.host = host;
  curl_free(host);
  for (const CURLUPart part : {CURLUPART_USER, CURLUPART_PASSWORD}) {
    char* value = nullptr;
    if (curl_url_get(handle.get(), part, &value, 0) == CURLUE_OK) {
      parts.userinfo = true;
      curl_free(value);
    }
  }
  return parts;
}

// http:// is refused except to this machine (a mirror or a test server on the loopback) and to
// the mirror the user named in $DFBENCH_<ENGINE>_RELEASES. The loopback is decided on the host
// curl will connect to, not on the URL's first characters ("http://127.0.0.1:80@other.host/"
// goes to other.host).
bool IsLoopbackUrl(const HttpUrlParts& url) {
  std::string host;
  for (const char c : url.host)
    host += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return host == "127.0.0.1" || host == "localhost" || host == "[::1]";
}

// DFBENCH_<ENGINE>_RELEASES: where a mirror of the engine's releases is named.
std::string MirrorVariable(const EngineSpec& spec) {
  std::string upper;
  for (char c : spec.name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "DFBENCH_" + upper + "_RELEASES";
}

bool TrustedHttpUrl(const std::string& url, const HttpUrlParts& parts, const EngineSpec& spec) {
  if (IsLoopbackUrl(parts)) return true;
  const std::string mirror = ReleaseBase(spec);
  if (mirror == spec.releases.base_url || url.rfind(mirror + "/", 0) != 0) return false;
  // Under the mirror's path, and at the mirror's host as curl reads both.
  const auto mirror_parts = CurlParts(mirror);
  return mirror_parts && !mirror_parts->userinfo && mirror_parts->host == parts.host;
}

// "v1.31.0", "8.0.2", "7.4.0-rc1", or a build between tags as `git describe` names it,
// "v1.40.0-87-gf8eca6d0b" (a local build added to the cache says so).
bool IsTagLike(const std::string& text) {
  auto release = [](const std::string& t) {
    return t.find_first_not_of("v0123456789.-rcRC") == std::string::npos &&
           t.find_first_of("0123456789") != std::string::npos;
  };
  if (release(text)) return true;
  const size_t g = text.rfind("-g");
  if (g == std::string::npos || g + 2 == text.size() ||
      text.find_first_not_of("0123456789abcdef", g + 2) != std::string::npos) {
    return false;
  }
  const size_t dash = text.rfind('-', g - 1);
  return dash != std::string::npos && dash + 1 < g &&
         text.find_first_not_of("0123456789", dash + 1) >= g && release(text.substr(0, dash));
}

std::string How(const EngineSpec& spec) {
  return "install " + spec.program + " on the host yourself, or pass --" + spec.name +
         "_binary PATH";
}

// A release at a tag (or the latest): the build the project publishes for the host's OS and
// arch where there is one, else its source release built on the host.
InstallPlan PlanRelease(const EngineSpec& spec, const VersionSpec& version,
                        const HostOffer& offer) {
  InstallPlan plan;
  const ReleaseFacts& r = spec.releases;
  const bool tagged = version.kind == VersionSpec::Kind::kTag;
  // A project without a "latest" link: the newest release this version of dfbench knows.
  const std::string tag = tagged ? version.value : r.known_latest;
  plan.label = tag.empty() ? "latest" : tag;
  if (std::string url = PublishedBuildUrl(spec, tag, offer.os, offer.arch); !url.empty()) {
    plan.method = InstallMethod::kReleaseTarball;
    plan.url = url;
    return plan;
  }
  if (r.source_release && !tag.empty()) {
    plan.method = InstallMethod::kSourceBuild;
    plan.url = SourceReleaseUrl(spec, tag);
    return plan;
  }
  const std::string os = offer.os.pretty.empty() ? "this OS" : offer.os.pretty;
  plan.reason = "no " + spec.name + " build is published for " + os + " (" + offer.arch +
                ") and it has no source release; pass --" + spec.name +
                "_version with a local build, or --" + spec.name + "_binary PATH";
  return plan;
}

}  // namespace

OsRelease ParseOsRelease(const std::string& text) {
  OsRelease os;
  os.id = hosts::OsReleaseField(text, "ID");
  os.version_id = hosts::OsReleaseField(text, "VERSION_ID");
  os.codename = hosts::OsReleaseField(text, "VERSION_CODENAME");
  if (os.codename.empty()) os.codename = hosts::OsReleaseField(text, "UBUNTU_CODENAME");
  os.pretty = hosts::OsReleaseField(text, "PRETTY_NAME");
  std::istringstream like(hosts::OsReleaseField(text, "ID_LIKE"));
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

std::string UbuntuBuildFor(const OsRelease& os) {
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

core::Result<VersionSpec> ParseVersionSpec(const std::string& text, const EngineSpec& spec) {
  const std::string flag = "--" + spec.name + "_version " + text;
  if (text.empty()) return VersionSpec{};
  if (text == "system") return VersionSpec{VersionSpec::Kind::kSystem, text};
  if (text == "latest") return VersionSpec{VersionSpec::Kind::kLatest, text};
  if (text.rfind("https://", 0) == 0) return VersionSpec{VersionSpec::Kind::kUrl, text};
  if (text.rfind("http://", 0) == 0) {
    const auto parts = CurlParts(text);
    if (!parts) return core::Fail(core::ErrorKind::kUsage, flag + ": not a URL curl reads");
    // A user name in a URL is where a host hides ("http://localhost:80@other.host"), and
    // downloaders (curl, wget) do not all read it alike: refused.
    if (parts->userinfo) {
      return core::Fail(core::ErrorKind::kUsage,
                        flag + ": a URL with a user name before its host (USER@HOST) is refused");
    }
    if (TrustedHttpUrl(text, *parts, spec)) return VersionSpec{VersionSpec::Kind::kUrl, text};
    return core::Fail(core::ErrorKind::kUsage,
                      flag +
                          ": use an https:// URL (http:// only to this machine or to the mirror "
                          "in " +
                          MirrorVariable(spec) + ")");
  }
  if (IsTagLike(text) && !std::filesystem::exists(text)) {
    std::string bare = text.front() == 'v' ? text.substr(1) : text;
    return VersionSpec{VersionSpec::Kind::kTag, spec.releases.tag_prefix + bare};
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(text, ec)) {
    return core::Fail(core::ErrorKind::kUsage,
                      flag + ": not a release tag, latest, system, an https:// URL or a file");
  }
  auto absolute = std::filesystem::absolute(text, ec);
  return VersionSpec{VersionSpec::Kind::kLocalFile,
                     ec ? text : absolute.lexically_normal().string()};
}

std::string ReleaseBase(const EngineSpec& spec) {
  if (const char* env = std::getenv(MirrorVariable(spec).c_str()); env && *env) {
    std::string base = env;
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
  }
  return spec.releases.base_url;
}

std::string PublishedBuildUrl(const EngineSpec& spec, const std::string& tag, const OsRelease& os,
                              const std::string& arch) {
  if (!SupportedReleaseArch(arch)) return "";
  const std::string a = hosts::CanonicalArch(arch);
  const std::string base = ReleaseBase(spec) + "/";
  switch (spec.releases.builds) {
    case PublishedBuilds::kNone:
      return "";
    case PublishedBuilds::kGithubAssets: {
      const std::string file = spec.name + "-" + a + ".tar.gz";
      return tag.empty() ? base + "latest/download/" + file : base + "download/" + tag + "/" + file;
    }
    case PublishedBuilds::kUbuntuBuilds: {
      const std::string build = UbuntuBuildFor(os);
      if (build.empty() || tag.empty()) return "";
      return base + spec.name + "-" + tag + "-" + build + "-" +
             (a == "aarch64" ? "arm64" : "x86_64") + ".tar.gz";
    }
  }
  return "";
}

std::string SourceReleaseUrl(const EngineSpec& spec, const std::string& version) {
  return ReleaseBase(spec) + "/" + spec.name + "-" + version + ".tar.gz";
}

std::string OriginOf(const std::string& method) {
  if (method == "release" || method == "upload") return "release";
  if (method == "source") return "build";
  if (method == "local") return "local";
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
  // Nothing specific asked for: the OS package where the engine has one, else its latest
  // release.
  if (version.kind == Kind::kSystem || (!specific && !spec.versioned_builds)) {
    if (!offer.package_candidate.empty()) {
      plan.method = InstallMethod::kOsPackage;
      plan.package = spec.program;
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
  }
  return PlanRelease(spec, version, offer);
}

std::string MethodName(InstallMethod method) {
  // In the order of InstallMethod.
  static constexpr const char* kNames[] = {"present", "apt", "release", "source", "upload", "none"};
  static_assert(std::size(kNames) == static_cast<size_t>(InstallMethod::kImpossible) + 1);
  return kNames[static_cast<size_t>(method)];
}

}  // namespace dfbench::engines
