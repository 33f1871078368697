#include "providers/client_tools.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "core/subprocess.h"
#include "hosts/local_host.h"
#include "support/scoped_temp_dir.h"
#include "support/testbed_engines.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBuildDir = "/home/ubuntu/.dfbench-work/lab/build";

ToolHostOffer UbuntuWithSudo(std::vector<std::string> missing) {
  ToolHostOffer offer;
  offer.os =
      engines::ParseOsRelease("ID=ubuntu\nVERSION_ID=\"22.04\"\nPRETTY_NAME=\"Ubuntu 22.04\"\n");
  offer.arch = "x86_64";
  offer.home = "/home/ubuntu";
  offer.sudo = true;
  offer.network = true;
  offer.missing_packages = std::move(missing);
  return offer;
}

TEST(ClientTools, MemtierBuildStepsAsTheReference) {
  const auto plan = PlanToolBuild(ClientTool::kMemtier, "2.3.0",
                                  UbuntuWithSudo({"autoconf", "libevent-dev"}), kBuildDir);
  ASSERT_EQ(plan.reason, "");
  EXPECT_EQ(plan.program, "memtier_benchmark");
  EXPECT_EQ(plan.binary, "/home/ubuntu/.local/bin/memtier_benchmark");
  EXPECT_EQ(plan.source,
            "https://github.com/RedisLabs/memtier_benchmark/archive/refs/tags/2.3.0.tar.gz");
  const std::string dir = kBuildDir;
  const std::string src = dir + "/memtier_benchmark-2.3.0";
  const std::string install =
      "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y "
      "-q --no-install-recommends autoconf libevent-dev";
  const std::vector<std::string> expected = {
      "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -q",
      install,
      "rm -rf " + src + " " + src + ".tar.gz && mkdir -p " + dir,
      "curl -fsSL --retry 2 --connect-timeout 20 -o " + src + ".tar.gz " + plan.source,
      "tar -xzf " + src + ".tar.gz -C " + dir,
      "cd " + src + " && autoreconf -ivf",
      "cd " + src + " && ./configure --prefix=/home/ubuntu/.local",
      "cd " + src + " && make -j\"$(nproc)\"",
      "cd " + src + " && make install",
      "/home/ubuntu/.local/bin/memtier_benchmark --version",
  };
  EXPECT_EQ(plan.steps, expected);
  EXPECT_EQ(BuildScript(plan).rfind("set -ex\n", 0), 0u);
}

TEST(ClientTools, RootWithEveryPackageNeedsNoAptAndNoSudo) {
  ToolHostOffer offer = UbuntuWithSudo({});
  offer.root = true;
  offer.sudo = false;
  offer.home = "/root";
  const auto plan = PlanToolBuild(ClientTool::kMemtier, "2.3.0", offer, "/root/w/build");
  ASSERT_EQ(plan.reason, "");
  EXPECT_EQ(plan.steps.front(),
            "rm -rf /root/w/build/memtier_benchmark-2.3.0 "
            "/root/w/build/memtier_benchmark-2.3.0.tar.gz && mkdir -p /root/w/build");
  EXPECT_EQ(plan.steps.back(), "/root/.local/bin/memtier_benchmark --version");

  offer.missing_packages = {"libssl-dev"};
  const auto with_apt = PlanToolBuild(ClientTool::kMemtier, "2.3.0", offer, "/root/w/build");
  EXPECT_EQ(with_apt.steps[0],
            "env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -q");
}

TEST(ClientTools, DflyBenchBuildStepsAtARef) {
  ToolHostOffer offer = UbuntuWithSudo({});
  offer.arch = "aarch64";
  const auto plan = PlanToolBuild(ClientTool::kDflyBench, "v1.31.0", offer, kBuildDir);
  ASSERT_EQ(plan.reason, "");
  EXPECT_EQ(plan.binary, "/home/ubuntu/.local/bin/dfly_bench");
  EXPECT_EQ(plan.source, "https://github.com/dragonflydb/dragonfly.git@v1.31.0");
  const std::string dir = kBuildDir;
  const std::string src = dir + "/dragonfly-v1.31.0";
  const std::string repo = "https://github.com/dragonflydb/dragonfly.git";
  const std::vector<std::string> expected = {
      "rm -rf " + src + " && mkdir -p " + dir,
      "git clone --depth 1 --branch v1.31.0 --recurse-submodules --shallow-submodules " + repo +
          " " + src + " || { rm -rf " + src + " && git clone " + repo + " " + src + " && git -C " +
          src + " checkout v1.31.0 && git -C " + src + " submodule update --init --recursive; }",
      "cd " + src + " && ./helio/blaze.sh -release -DWITH_AWS=OFF -DWITH_GCP=OFF",
      "cd " + src + "/build-opt && ninja dfly_bench",
      "mkdir -p /home/ubuntu/.local/bin && install -m 755 " + src +
          "/build-opt/dfly_bench /home/ubuntu/.local/bin/dfly_bench",
  };
  EXPECT_EQ(plan.steps, expected);

  // A branch with a slash builds in a directory of its own name, without the slash.
  const auto branch = PlanToolBuild(ClientTool::kDflyBench, "release/x", offer, kBuildDir);
  EXPECT_EQ(branch.steps[0], "rm -rf " + dir + "/dragonfly-release-x && mkdir -p " + dir);
}

TEST(ClientTools, WhatCannotBeBuiltSaysWhatToDoInstead) {
  ToolHostOffer no_sudo = UbuntuWithSudo({"libevent-dev"});
  no_sudo.sudo = false;
  auto plan = PlanToolBuild(ClientTool::kMemtier, "2.3.0", no_sudo, kBuildDir);
  EXPECT_TRUE(plan.steps.empty());
  EXPECT_EQ(plan.reason,
            "installing its build dependencies (libevent-dev) needs root or passwordless sudo: "
            "install them, or install memtier_benchmark there yourself, or pass "
            "--memtier-binary PATH");

  ToolHostOffer fedora = UbuntuWithSudo({"cmake"});
  fedora.os = engines::ParseOsRelease("ID=fedora\nPRETTY_NAME=\"Fedora Linux 40\"\n");
  plan = PlanToolBuild(ClientTool::kDflyBench, "main", fedora, kBuildDir);
  EXPECT_EQ(plan.reason,
            "it is not Debian or Ubuntu (Fedora Linux 40), so its build dependencies cannot be "
            "installed: install dfly_bench there yourself, or pass --dfly-bench-binary PATH");

  ToolHostOffer riscv = UbuntuWithSudo({});
  riscv.arch = "riscv64";
  plan = PlanToolBuild(ClientTool::kDflyBench, "main", riscv, kBuildDir);
  EXPECT_TRUE(plan.steps.empty());
  EXPECT_EQ(plan.reason,
            "Dragonfly builds on x86_64 and aarch64 only, the host is riscv64: pass "
            "--dfly-bench-binary PATH");
  // memtier_benchmark builds anywhere autotools do.
  EXPECT_EQ(PlanToolBuild(ClientTool::kMemtier, "2.3.0", riscv, kBuildDir).reason, "");
}

TEST(ClientTools, AClientWithoutNetworkCannotBuildEither) {
  ToolHostOffer offline = UbuntuWithSudo({});
  offline.network = false;
  auto plan = PlanToolBuild(ClientTool::kMemtier, "2.3.0", offline, kBuildDir);
  EXPECT_TRUE(plan.steps.empty());
  EXPECT_EQ(plan.reason,
            "it cannot reach github.com, where the source is: install memtier_benchmark there "
            "yourself, or pass --memtier-binary PATH");
  plan = PlanToolBuild(ClientTool::kDflyBench, "main", offline, kBuildDir);
  EXPECT_TRUE(plan.steps.empty());
  EXPECT_EQ(plan.reason,
            "it cannot reach github.com, where the source is: install dfly_bench there "
            "yourself, or pass --dfly-bench-binary PATH");
}

TEST(ClientTools, ARunIsToldWhySetupRecordedAToolAsMissing) {
  const state::ProviderData data{
      .load_generators = state::LoadGenerators{
          .dfly_bench = state::LoadGeneratorRecord{.method = "source",
                                                   .binary = "/home/u/.local/bin/dfly_bench"},
          .memtier = state::LoadGeneratorRecord{
              .method = "missing", .version = "2.3.0", .reason = "no network"}}};
  EXPECT_EQ(MissingToolNote(data, core::LoadGenerator::kMemtier),
            "memtier_benchmark is not installed on the client host: setup could not build it (no "
            "network)");
  EXPECT_EQ(MissingToolNote(data, core::LoadGenerator::kDflyBench),
            std::nullopt);  // built: not missing
  EXPECT_EQ(MissingToolNote(state::ProviderData{}, core::LoadGenerator::kMemtier), std::nullopt);
  EXPECT_EQ(MissingToolNote(data, core::LoadGenerator::kBuiltin), std::nullopt);
}

// A plain setup on a client that cannot build the tools (this machine, when it has no way to
// GitHub): both are recorded as missing and setup goes on; asked for by name, one fails it.
TEST(ClientTools, APlainSetupGoesOnWithoutToolsItCannotBuild) {
  const std::string old_path = std::getenv("PATH");
  setenv("PATH", "/usr/bin:/bin", 1);
  const bool present =
      core::FindOnPath("memtier_benchmark").has_value() || core::FindOnPath("dfly_bench");
  const testing::ScopedTempDir dir("client-tools");
  hosts::LocalHost host(dir.path() / "work");
  auto offer = ProbeToolHost(host, ClientTool::kMemtier);
  if (present || !offer || offer->network) {
    setenv("PATH", old_path.c_str(), 1);
    GTEST_SKIP() << "this machine has the tools or reaches github.com: setup would build them";
  }
  auto record = EnsureClientTools(host, {.memtier = ToolNeed::kIfBuildable,
                                         .dfly_bench = ToolNeed::kIfBuildable,
                                         .dfly_bench_ref = "v1.31.0"});
  auto required = EnsureClientTools(host, {.memtier = ToolNeed::kRequired});
  setenv("PATH", old_path.c_str(), 1);
  ASSERT_TRUE(record) << record.error().message;
  ASSERT_TRUE(record->memtier && record->dfly_bench);
  EXPECT_EQ(record->memtier->method, "missing");
  EXPECT_EQ(record->memtier->version, kMemtierRelease);
  EXPECT_EQ(record->dfly_bench->method, "missing");
  EXPECT_EQ(record->dfly_bench->version, "v1.31.0");
  const std::string reason = record->memtier->reason;
  EXPECT_EQ(reason.rfind("it cannot reach github.com", 0), 0u) << reason;
  EXPECT_EQ(MissingToolNote({.load_generators = *record}, core::LoadGenerator::kDflyBench),
            "dfly_bench is not installed on the client host: setup could not build it (it cannot "
            "reach github.com, where the source is: install dfly_bench there yourself, or pass "
            "--dfly-bench-binary PATH)");
  ASSERT_FALSE(required);
  EXPECT_EQ(required.error().kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(required.error().message.find("memtier_benchmark is not installed on "),
            std::string::npos)
      << required.error().message;
  EXPECT_NE(required.error().message.find("cannot be built there: it cannot reach github.com"),
            std::string::npos)
      << required.error().message;
  EXPECT_FALSE(fs::exists(dir.path() / "work" / "build"));  // nothing was fetched or built
}

TEST(ClientTools, GitRefsArePlainNames) {
  for (const char* ok : {"main", "v1.31.0", "release/1.2", "f8eca6d", "a_b-c"}) {
    EXPECT_TRUE(ValidateGitRef(ok)) << ok;
  }
  for (const char* bad : {"", "-x", ".hidden", "a..b", "main;rm", "a b", "$(id)"}) {
    auto st = ValidateGitRef(bad);
    ASSERT_FALSE(st) << bad;
    EXPECT_EQ(st.error().kind, core::ErrorKind::kUsage);
  }
}

TEST(ClientTools, ProbeReadsThisHost) {
  const testing::ScopedTempDir dir("client-tools");
  hosts::LocalHost host(dir.path());
  auto offer = ProbeToolHost(host, ClientTool::kMemtier);
  ASSERT_TRUE(offer) << offer.error().message;
  EXPECT_EQ(offer->home, std::getenv("HOME"));
  EXPECT_EQ(offer->root, getuid() == 0);
  EXPECT_FALSE(offer->arch.empty());
  const auto all = BuildPackages(ClientTool::kMemtier);
  for (const auto& p : offer->missing_packages) {
    EXPECT_NE(std::find(all.begin(), all.end(), p), all.end()) << p;
  }
}

TEST(ClientTools, AToolAlreadyThereIsUsedWithoutBuilding) {
  if (auto why = testing::MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::string memtier = testing::MemtierBinary().string();
  const testing::ScopedTempDir dir("client-tools");
  const fs::path bin = dir.path() / "bin";
  fs::create_directories(bin);
  fs::create_symlink(memtier, bin / "memtier_benchmark");
  const std::string old_path = std::getenv("PATH");
  setenv("PATH", (bin.string() + ":" + old_path).c_str(), 1);
  hosts::LocalHost host(dir.path() / "work");
  auto record = EnsureClientTools(host, {.memtier = ToolNeed::kRequired});
  setenv("PATH", old_path.c_str(), 1);
  ASSERT_TRUE(record) << record.error().message;
  ASSERT_TRUE(record->memtier);
  EXPECT_EQ(record->memtier->method, "present");
  EXPECT_EQ(record->memtier->binary, (bin / "memtier_benchmark").string());
  EXPECT_FALSE(fs::exists(dir.path() / "work" / "build"));  // nothing was built
  EXPECT_FALSE(record->dfly_bench);
}

TEST(ClientTools, ABadRefStopsBeforeTheHostIsTouched) {
  const testing::ScopedTempDir dir("client-tools");
  hosts::LocalHost host(dir.path() / "work");
  auto record = EnsureClientTools(
      host, {.dfly_bench = ToolNeed::kIfBuildable, .dfly_bench_ref = "main;reboot"});
  ASSERT_FALSE(record);
  EXPECT_EQ(record.error().kind, core::ErrorKind::kUsage);
  EXPECT_FALSE(fs::exists(dir.path() / "work"));
}

}  // namespace
}  // namespace dfbench::providers
