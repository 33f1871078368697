#include "engines/install.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/files.h"
#include "core/subprocess.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::engines {
namespace {

namespace fs = std::filesystem;

const char* kJammy = R"os(PRETTY_NAME="Ubuntu 22.04.5 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
VERSION_CODENAME=jammy
ID=ubuntu
ID_LIKE=debian
UBUNTU_CODENAME=jammy
)os";

const char* kBookworm = R"os(PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION_CODENAME=bookworm
ID=debian
)os";

const char* kFedora = R"os(NAME="Fedora Linux"
VERSION_ID=40
ID=fedora
PRETTY_NAME="Fedora Linux 40 (Server Edition)"
)os";

HostOffer Offer(const char* os_release, std::string candidate = "",
                std::optional<std::string> on_path = std::nullopt, std::string arch = "x86_64") {
  return {.os = ParseOsRelease(os_release),
          .arch = std::move(arch),
          .on_path = std::move(on_path),
          .package_candidate = std::move(candidate)};
}

const EngineSpec& E(const char* name) {
  return *FindEngine(name);
}

TEST(OsRelease, ParsesTheFieldsThatMatter) {
  auto os = ParseOsRelease(kJammy);
  EXPECT_EQ(os.id, "ubuntu");
  EXPECT_EQ(os.version_id, "22.04");
  EXPECT_EQ(os.codename, "jammy");
  EXPECT_EQ(os.pretty, "Ubuntu 22.04.5 LTS");
  EXPECT_EQ(os.id_like, std::vector<std::string>{"debian"});
  EXPECT_TRUE(IsDebianLike(os));
  EXPECT_TRUE(IsDebianLike(ParseOsRelease(kBookworm)));
  EXPECT_FALSE(IsDebianLike(ParseOsRelease(kFedora)));
  EXPECT_TRUE(IsDebianLike(ParseOsRelease("ID=linuxmint\nID_LIKE=\"ubuntu debian\"\n")));
}

TEST(UbuntuBuildFor, MatchesGlibcGenerations) {
  EXPECT_EQ(UbuntuBuildFor(ParseOsRelease("ID=ubuntu\nVERSION_ID=\"20.04\"\n")), "focal");
  EXPECT_EQ(UbuntuBuildFor(ParseOsRelease(kJammy)), "jammy");
  EXPECT_EQ(UbuntuBuildFor(ParseOsRelease("ID=ubuntu\nVERSION_ID=\"24.04\"\n")), "noble");
  EXPECT_EQ(UbuntuBuildFor(ParseOsRelease(kBookworm)), "jammy");
  EXPECT_EQ(UbuntuBuildFor(ParseOsRelease("ID=debian\nVERSION_ID=\"11\"\n")), "focal");
  EXPECT_EQ(UbuntuBuildFor(ParseOsRelease("ID=ubuntu\nVERSION_ID=\"18.04\"\n")), "");
  EXPECT_EQ(UbuntuBuildFor(ParseOsRelease(kFedora)), "");
}

TEST(VersionSpec, TagsLatestUrlsAndFiles) {
  EXPECT_EQ(ParseVersionSpec("", E("dragonfly"))->kind, VersionSpec::Kind::kAny);
  EXPECT_EQ(ParseVersionSpec("latest", E("dragonfly"))->kind, VersionSpec::Kind::kLatest);
  auto tag = ParseVersionSpec("v1.31.0", E("dragonfly"));
  EXPECT_EQ(tag->kind, VersionSpec::Kind::kTag);
  EXPECT_EQ(tag->value, "v1.31.0");
  EXPECT_EQ(ParseVersionSpec("1.31.0", E("dragonfly"))->value, "v1.31.0");
  EXPECT_EQ(ParseVersionSpec("https://example.com/d.tar.gz", E("dragonfly"))->kind,
            VersionSpec::Kind::kUrl);
  EXPECT_EQ(ParseVersionSpec("http://example.com/d.tar.gz", E("dragonfly")).error().kind,
            core::ErrorKind::kUsage);
  EXPECT_EQ(ParseVersionSpec("http://127.0.0.1:8000/d.tar.gz", E("dragonfly"))->kind,
            VersionSpec::Kind::kUrl);
  EXPECT_FALSE(ParseVersionSpec("http://127.0.0.1.example.com/d.tar.gz", E("dragonfly")));
  EXPECT_EQ(ParseVersionSpec("system", E("dragonfly"))->kind, VersionSpec::Kind::kSystem);
  // Only Dragonfly's tags carry a "v".
  EXPECT_EQ(ParseVersionSpec("v8.0.2", E("valkey"))->value, "8.0.2");
  EXPECT_EQ(ParseVersionSpec("7.4.2", E("redis"))->kind, VersionSpec::Kind::kTag);
  // A build between tags, as `git describe` (and `dfbench cache add`) names it.
  auto between = ParseVersionSpec("v1.40.0-87-gf8eca6d0b", E("dragonfly"));
  ASSERT_TRUE(between);
  EXPECT_EQ(between->kind, VersionSpec::Kind::kTag);
  EXPECT_EQ(between->value, "v1.40.0-87-gf8eca6d0b");
  EXPECT_FALSE(ParseVersionSpec("v1.40.0-gf8eca6d0b", E("dragonfly")));
  EXPECT_FALSE(ParseVersionSpec("v1.40.0-87-gxyz", E("dragonfly")));
  auto bad = ParseVersionSpec("./no/such/valkey", E("valkey"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "--valkey_version ./no/such/valkey: not a release tag, latest, system, an https:// URL "
            "or a file");
  EXPECT_EQ(ParseVersionSpec("./no/such/dragonfly", E("dragonfly")).error().kind,
            core::ErrorKind::kUsage);
  auto self = ParseVersionSpec(core::SelfExecutable(), E("dragonfly"));
  ASSERT_TRUE(self);
  EXPECT_EQ(self->kind, VersionSpec::Kind::kLocalFile);
  EXPECT_EQ(self->value.front(), '/');
}

// Hosts under .invalid: a refusal that failed could not send a request off this machine.
TEST(VersionSpec, HttpOnlyToThisMachineOrTheNamedMirror) {
  ::setenv("DFBENCH_VALKEY_RELEASES", "http://mirror.invalid:8000/mirror/", 1);
  EXPECT_EQ(ParseVersionSpec("http://mirror.invalid:8000/mirror/v.tar.gz", E("valkey"))->kind,
            VersionSpec::Kind::kUrl);
  EXPECT_FALSE(ParseVersionSpec("http://mirror.invalid:8000/other/v.tar.gz", E("valkey")));
  // The mirror's path at another host, or behind userinfo naming the mirror, is not the mirror.
  EXPECT_FALSE(ParseVersionSpec("http://other.invalid:8000/mirror/v.tar.gz", E("valkey")));
  EXPECT_FALSE(
      ParseVersionSpec("http://mirror.invalid:8000@other.invalid/mirror/v.tar.gz", E("valkey")));
  // The mirror of one engine vouches for nothing else.
  EXPECT_FALSE(ParseVersionSpec("http://mirror.invalid:8000/mirror/v.tar.gz", E("redis")));
  ::unsetenv("DFBENCH_VALKEY_RELEASES");
  auto refused = ParseVersionSpec("http://mirror.invalid:8000/mirror/v.tar.gz", E("valkey"));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("DFBENCH_VALKEY_RELEASES"), std::string::npos);
}

// The loopback rule is decided on the host curl connects to, not on the URL's first characters.
TEST(VersionSpec, HttpLoopbackIsTheHostCurlReads) {
  for (const char* url : {"http://127.0.0.1:8000/x.tar.gz", "http://localhost/x.tar.gz",
                          "http://[::1]:8/x.tar.gz", "http://127.0.0.1/x.tar.gz"}) {
    auto spec = ParseVersionSpec(url, E("dragonfly"));
    ASSERT_TRUE(spec) << url << ": " << spec.error().message;
    EXPECT_EQ(spec->kind, VersionSpec::Kind::kUrl) << url;
  }
  for (const char* url :
       {"http://127.0.0.1.evil.invalid/x.tar.gz", "http://localhost.evil.invalid/x.tar.gz",
        "http://127.0.0.1:80@other.invalid/x.tar.gz",
        "http://localhost:17100\\@other.invalid/x.tar.gz", "http://me@localhost/x.tar.gz"}) {
    auto spec = ParseVersionSpec(url, E("dragonfly"));
    ASSERT_FALSE(spec) << url;
    EXPECT_EQ(spec.error().kind, core::ErrorKind::kUsage) << url;
  }
  auto spoof = ParseVersionSpec("http://127.0.0.1:80@other.invalid/x.tar.gz", E("dragonfly"));
  ASSERT_FALSE(spoof);
  EXPECT_NE(spoof.error().message.find("USER@HOST"), std::string::npos) << spoof.error().message;
  // The backslash spoof: curl reads "localhost:17100\\" as userinfo and connects to other.invalid.
  auto backslash =
      ParseVersionSpec("http://localhost:17100\\@other.invalid/x.tar.gz", E("dragonfly"));
  ASSERT_FALSE(backslash);
  EXPECT_EQ(backslash.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(backslash.error().message.find("USER@HOST"), std::string::npos)
      << backslash.error().message;
}

TEST(ReleaseUrls, MirrorFromTheEnvironment) {
  ::setenv("DFBENCH_VALKEY_RELEASES", "http://127.0.0.1:9/mirror/", 1);
  EXPECT_EQ(PublishedBuildUrl(E("valkey"), "8.0.2", ParseOsRelease(kJammy), "x86_64"),
            "http://127.0.0.1:9/mirror/valkey-8.0.2-jammy-x86_64.tar.gz");
  EXPECT_EQ(SourceReleaseUrl(E("valkey"), "8.1.0"),
            "http://127.0.0.1:9/mirror/valkey-8.1.0.tar.gz");
  ::unsetenv("DFBENCH_VALKEY_RELEASES");
  EXPECT_EQ(ReleaseBase(E("valkey")), "https://download.valkey.io/releases");
}

TEST(ReleaseUrls, PerArchitectureAndTag) {
  const OsRelease jammy = ParseOsRelease(kJammy);
  EXPECT_EQ(PublishedBuildUrl(E("dragonfly"), "", jammy, "x86_64"),
            "https://github.com/dragonflydb/dragonfly/releases/latest/download/"
            "dragonfly-x86_64.tar.gz");
  EXPECT_EQ(PublishedBuildUrl(E("dragonfly"), "", ParseOsRelease(kFedora), "arm64"),
            "https://github.com/dragonflydb/dragonfly/releases/latest/download/"
            "dragonfly-aarch64.tar.gz");
  EXPECT_EQ(PublishedBuildUrl(E("dragonfly"), "v1.31.0", jammy, "aarch64"),
            "https://github.com/dragonflydb/dragonfly/releases/download/v1.31.0/"
            "dragonfly-aarch64.tar.gz");
  EXPECT_EQ(PublishedBuildUrl(E("dragonfly"), "", jammy, "riscv64"), "");
  EXPECT_EQ(PublishedBuildUrl(E("valkey"), "8.0.2", jammy, "aarch64"),
            "https://download.valkey.io/releases/valkey-8.0.2-jammy-arm64.tar.gz");
  EXPECT_EQ(PublishedBuildUrl(E("valkey"), "8.0.2", ParseOsRelease("ID=ubuntu\nVERSION_ID=24.04\n"),
                              "x86_64"),
            "https://download.valkey.io/releases/valkey-8.0.2-noble-x86_64.tar.gz");
  EXPECT_EQ(PublishedBuildUrl(E("valkey"), "8.0.2", ParseOsRelease(kFedora), "x86_64"), "");
  EXPECT_EQ(PublishedBuildUrl(E("redis"), "7.4.2", jammy, "x86_64"), "");
  EXPECT_EQ(SourceReleaseUrl(E("redis"), "7.4.2"),
            "https://download.redis.io/releases/redis-7.4.2.tar.gz");
}

std::string Header(unsigned char data, uint16_t machine) {
  std::string h(64, '\0');
  h[0] = 0x7f;
  h[1] = 'E';
  h[2] = 'L';
  h[3] = 'F';
  h[4] = 2;
  h[5] = static_cast<char>(data);
  if (data == 1) {
    h[18] = static_cast<char>(machine & 0xff);
    h[19] = static_cast<char>(machine >> 8);
  } else {
    h[18] = static_cast<char>(machine >> 8);
    h[19] = static_cast<char>(machine & 0xff);
  }
  return h;
}

TEST(ElfArch, ReadsEMachine) {
  EXPECT_EQ(ElfArch(Header(1, 62)), "x86_64");
  EXPECT_EQ(ElfArch(Header(1, 183)), "aarch64");
  EXPECT_EQ(ElfArch(Header(1, 243)), "riscv64");
  EXPECT_EQ(ElfArch(Header(2, 22)), "s390x");
  EXPECT_EQ(ElfArch(Header(1, 999)), "machine-999");
  EXPECT_EQ(ElfArch("#!/bin/sh\necho hi\n"), "");
  EXPECT_EQ(ElfArch("\x7f"
                    "ELF"),
            "");  // too short
  // This test binary is ELF for this machine.
  auto self = core::ReadFile(core::SelfExecutable());
  ASSERT_TRUE(self);
  EXPECT_FALSE(ElfArch(*self).empty());
}

TEST(CheckElfArch, RefusesOtherArchitecturesAndScripts) {
  const testing::ScopedTempDir dir("install");
  ASSERT_TRUE(core::WriteFileAtomic(dir / "arm", Header(1, 183)));
  ASSERT_TRUE(core::WriteFileAtomic(dir / "script", "#!/bin/sh\n"));
  auto arm = CheckElfArch(dir / "arm", "x86_64");
  ASSERT_FALSE(arm);
  EXPECT_EQ(arm.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(arm.error().message.find("built for aarch64, but the host is x86_64"),
            std::string::npos)
      << arm.error().message;
  EXPECT_TRUE(CheckElfArch(dir / "arm", "arm64"));
  EXPECT_FALSE(CheckElfArch(dir / "script", "x86_64"));
  EXPECT_FALSE(CheckElfArch(dir / "missing", "x86_64"));
}

TEST(PlanInstall, UsesWhatIsThere) {
  for (const char* name : {"redis", "valkey", "memcached", "dragonfly"}) {
    auto plan = PlanInstall(E(name), {}, Offer(kFedora, "", "/usr/bin/x"));
    EXPECT_EQ(plan.method, InstallMethod::kPresent) << name;
  }
  // A specific Dragonfly build replaces what is there.
  auto plan = PlanInstall(E("dragonfly"), {VersionSpec::Kind::kTag, "v1.30.0"},
                          Offer(kJammy, "", "/usr/local/bin/dragonfly"));
  EXPECT_EQ(plan.method, InstallMethod::kReleaseTarball);
  EXPECT_EQ(plan.label, "v1.30.0");
}

TEST(PlanInstall, PackagesFirstThenReleases) {
  auto redis = PlanInstall(E("redis"), {}, Offer(kJammy, "5:6.0.16-1ubuntu1"));
  EXPECT_EQ(redis.method, InstallMethod::kOsPackage);
  EXPECT_EQ(redis.package, "redis-server");
  auto valkey = PlanInstall(E("valkey"), {}, Offer(kJammy, "", std::nullopt, "aarch64"));
  EXPECT_EQ(valkey.method, InstallMethod::kReleaseTarball);
  EXPECT_EQ(valkey.url, "https://download.valkey.io/releases/valkey-" +
                            E("valkey").releases.known_latest + "-jammy-arm64.tar.gz");
  auto valkey_pkg = PlanInstall(E("valkey"), {}, Offer(kBookworm, "8.1.1+dfsg1-1"));
  EXPECT_EQ(valkey_pkg.package, "valkey-server");
  auto redis_src = PlanInstall(E("redis"), {}, Offer(kBookworm));
  EXPECT_EQ(redis_src.method, InstallMethod::kSourceBuild);
  EXPECT_EQ(redis_src.url, SourceReleaseUrl(E("redis"), E("redis").releases.known_latest));
  EXPECT_EQ(PlanInstall(E("memcached"), {}, Offer(kJammy, "1.6.14-1")).package, "memcached");
  auto df = PlanInstall(E("dragonfly"), {}, Offer(kBookworm));
  EXPECT_EQ(df.method, InstallMethod::kReleaseTarball);
  EXPECT_EQ(df.label, "latest");
  EXPECT_EQ(df.url, PublishedBuildUrl(E("dragonfly"), "", ParseOsRelease(kBookworm), "x86_64"));
  auto url =
      PlanInstall(E("dragonfly"), {VersionSpec::Kind::kUrl, "https://a/b.tar.gz"}, Offer(kJammy));
  EXPECT_EQ(url.label.rfind("url-", 0), 0u);
  EXPECT_EQ(url.label, PlanInstall(E("dragonfly"), {VersionSpec::Kind::kUrl, "https://a/b.tar.gz"},
                                   Offer(kBookworm))
                           .label);  // stable
  EXPECT_EQ(
      PlanInstall(E("dragonfly"), {VersionSpec::Kind::kLocalFile, "/x"}, Offer(kJammy)).method,
      InstallMethod::kUpload);
}

TEST(PlanInstall, PinnedVersionsComeFromReleasesOrSource) {
  // A pinned version is installed even where the engine is on PATH.
  auto valkey = PlanInstall(E("valkey"), {VersionSpec::Kind::kTag, "8.1.0"},
                            Offer(kBookworm, "8.1.1", "/usr/bin/valkey-server"));
  EXPECT_EQ(valkey.method, InstallMethod::kReleaseTarball);
  EXPECT_EQ(valkey.url, PublishedBuildUrl(E("valkey"), "8.1.0", ParseOsRelease(kJammy), "x86_64"));
  EXPECT_EQ(valkey.label, "8.1.0");
  auto valkey_src = PlanInstall(E("valkey"), {VersionSpec::Kind::kTag, "8.1.0"}, Offer(kFedora));
  EXPECT_EQ(valkey_src.method, InstallMethod::kSourceBuild);
  EXPECT_EQ(valkey_src.url, SourceReleaseUrl(E("valkey"), "8.1.0"));
  auto redis = PlanInstall(E("redis"), {VersionSpec::Kind::kLatest, "latest"}, Offer(kJammy));
  EXPECT_EQ(redis.method, InstallMethod::kSourceBuild);
  EXPECT_EQ(redis.label, E("redis").releases.known_latest);
  auto url =
      PlanInstall(E("memcached"), {VersionSpec::Kind::kUrl, "https://m/x.tar.gz"}, Offer(kJammy));
  EXPECT_EQ(url.method, InstallMethod::kReleaseTarball);
  EXPECT_EQ(url.label.rfind("url-", 0), 0u);
  // system: what is there, never a download.
  EXPECT_EQ(PlanInstall(E("dragonfly"), {VersionSpec::Kind::kSystem, "system"},
                        Offer(kJammy, "", "/usr/bin/dragonfly"))
                .method,
            InstallMethod::kPresent);
  EXPECT_EQ(
      PlanInstall(E("dragonfly"), {VersionSpec::Kind::kSystem, "system"}, Offer(kJammy)).method,
      InstallMethod::kImpossible);
}

// Without a package and without a published build for the host, a source release is built.
TEST(PlanInstall, SourceReleasesWhereNoBuildMatches) {
  auto old = PlanInstall(E("valkey"), {}, Offer("ID=ubuntu\nVERSION_ID=\"18.04\"\n"));
  EXPECT_EQ(old.method, InstallMethod::kSourceBuild);
  EXPECT_EQ(old.url, SourceReleaseUrl(E("valkey"), E("valkey").releases.known_latest));
  auto memcached = PlanInstall(E("memcached"), {}, Offer(kBookworm));
  EXPECT_EQ(memcached.method, InstallMethod::kSourceBuild);
  EXPECT_EQ(memcached.label, E("memcached").releases.known_latest);
}

TEST(PlanInstall, SaysWhyWhenThereIsNoWay) {
  auto fedora = PlanInstall(E("valkey"), {}, Offer(kFedora));
  EXPECT_EQ(fedora.method, InstallMethod::kImpossible);
  EXPECT_NE(fedora.reason.find("Debian and Ubuntu only"), std::string::npos) << fedora.reason;
  EXPECT_NE(fedora.reason.find("--valkey_binary"), std::string::npos) << fedora.reason;
  auto riscv = PlanInstall(E("dragonfly"), {}, Offer(kJammy, "", std::nullopt, "riscv64"));
  EXPECT_EQ(riscv.method, InstallMethod::kImpossible);
  EXPECT_NE(riscv.reason.find("riscv64"), std::string::npos);
  EXPECT_NE(riscv.reason.find("--dragonfly_version"), std::string::npos);
  EXPECT_EQ(MethodName(InstallMethod::kOsPackage), "apt");
}

}  // namespace
}  // namespace dfbench::engines

namespace dfbench::engines {
namespace {

// A host that answers the installer's commands from a script and records them.
class FakeHost : public hosts::Host {
 public:
  explicit FakeHost(std::string probe = "") : probe(std::move(probe)) {}

  std::string probe;  // what the probe script prints
  std::vector<std::vector<std::string>> ran;
  bool installed = false;  // becomes true after apt-get install / the download script

  std::string Name() const override { return "server (fake)"; }
  std::string EngineAddress() const override { return "10.0.0.2"; }
  core::Result<hosts::CommandOutput> Run(const hosts::CommandSpec& spec) override {
    ran.push_back(spec.argv);
    const auto& a = spec.argv;
    hosts::CommandOutput out{.status = {}};
    if (a[0] == "sh" && a.size() == 6 && a[4] == a[5]) {
      out.out = probe;  // the probe: program and package
    } else if (a.back() == "--version" || a.back() == "-V") {
      out.out = "fake " + a[0] + " v1.2.3\n";
    } else if (a[0] == "test") {
      out.status.code = 1;  // nothing cached
    } else {
      installed = true;
    }
    return out;
  }
  core::Result<hosts::DaemonHandle> StartDaemon(const hosts::DaemonSpec&) override {
    return core::Fail(core::ErrorKind::kUsage, "no");
  }
  bool DaemonAlive(hosts::DaemonHandle&) override { return false; }
  core::Status StopDaemon(hosts::DaemonHandle&, std::chrono::milliseconds) override {
    return core::Ok();
  }
  core::Result<std::string> WorkDir() override { return std::string("/home/u/.dfbench-work/s"); }
  core::Result<core::HostFacts> Facts(core::Role) override { return core::HostFacts{}; }
  core::Result<int> FreePort() override { return 20000; }
  std::optional<std::string> Which(const std::string& program) override {
    if (program.find('/') != std::string::npos) return program;
    if (installed) return "/usr/bin/" + program;
    return std::nullopt;
  }
  core::Result<std::string> DfbenchBinary() override { return std::string("/x"); }

  bool Ran(const std::vector<std::string>& argv) const {
    return std::find(ran.begin(), ran.end(), argv) != ran.end();
  }
  // A command that ends with `tail`, run detached in a session of its own (apt-get).
  bool RanDetached(const std::vector<std::string>& tail) const {
    for (const auto& a : ran) {
      if (a.size() > tail.size() && a[0] == "setsid" && a[1] == "-w" &&
          std::equal(tail.begin(), tail.end(), a.end() - static_cast<long>(tail.size()))) {
        return true;
      }
    }
    return false;
  }
};

std::string Probe(const std::string& os, const std::string& path, const std::string& candidate,
                  const std::string& uid) {
  return "@@os\n" + os + "@@arch\nx86_64\n@@path\n" + path + "\n@@candidate\n" + candidate +
         "\n@@lists\n3\n@@tools\nmake\ncc\n@@uid\n" + uid + "\n";
}

// EnsureInstalled of `engine` as it comes (no request), which must succeed.
InstalledEngine MustInstall(FakeHost& host, const char* engine) {
  auto r = EnsureInstalled(host, E(engine), {});
  EXPECT_TRUE(r) << r.error().message;
  return r.value_or(InstalledEngine{});
}

TEST(EnsureInstalled, PresentEnginesAreNotReinstalled) {
  FakeHost host(Probe(kJammy, "/usr/bin/redis-server", "5:6.0.16", "0"));
  InstalledEngine r = MustInstall(host, "redis");
  EXPECT_EQ(r.binary, "/usr/bin/redis-server");
  EXPECT_EQ(r.method, "present");
  EXPECT_EQ(r.version, "fake /usr/bin/redis-server v1.2.3");
  EXPECT_FALSE(host.installed);
}

TEST(EnsureInstalled, AptThroughSudoWhenNotRoot) {
  FakeHost host(Probe(kJammy, "", "5:6.0.16-1ubuntu1", "1000"));
  InstalledEngine r = MustInstall(host, "redis");
  EXPECT_EQ(r.method, "apt");
  EXPECT_EQ(r.source, "redis-server");
  EXPECT_TRUE(host.RanDetached({"sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get",
                                "-o", "DPkg::Lock::Timeout=300", "install", "-y", "-q",
                                "--no-install-recommends", "redis-server"}));
  // The packaged service is not left running beside the engines dfbench starts.
  EXPECT_TRUE(host.Ran({"sudo", "-n", "systemctl", "disable", "--now", "redis-server"}));

  FakeHost root(Probe(kJammy, "", "1.6.14-1", "0"));
  MustInstall(root, "memcached");
  EXPECT_TRUE(root.RanDetached({"env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o",
                                "DPkg::Lock::Timeout=300", "install", "-y", "-q",
                                "--no-install-recommends", "memcached"}));
}

TEST(EnsureInstalled, ExplicitBinaryAndImpossibleInstalls) {
  FakeHost host;
  InstallRequest request;
  request.explicit_binary = "/opt/redis/bin/redis-server";
  auto r = EnsureInstalled(host, E("redis"), request);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->method, "binary");
  EXPECT_EQ(r->binary, "/opt/redis/bin/redis-server");

  FakeHost fedora(Probe(kFedora, "", "", "0"));
  auto none = EnsureInstalled(fedora, E("valkey"), {});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(none.error().message.find("cannot install valkey on server (fake)"), std::string::npos)
      << none.error().message;
  EXPECT_FALSE(fedora.installed);
}

}  // namespace
}  // namespace dfbench::engines
