#include "hosts/dfbench_builds.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "core/files.h"
#include "core/subprocess.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::hosts {
namespace {

// A file standing for a dfbench build: only its path, mode and existence matter here.
void WriteBuild(const std::filesystem::path& path, mode_t mode) {
  ASSERT_TRUE(core::WriteFileAtomic(path, "build"));
  ASSERT_EQ(chmod(path.c_str(), mode), 0);
}

TEST(DfbenchBuilds, NameFollowsCanonicalArch) {
  EXPECT_EQ(ClientBuildName("aarch64"), "dfbench-linux-aarch64");
  EXPECT_EQ(ClientBuildName("arm64"), "dfbench-linux-aarch64");
  EXPECT_EQ(ClientBuildName("amd64"), "dfbench-linux-x86_64");
}

TEST(DfbenchBuilds, SameArchIsThisExecutable) {
  const testing::ScopedTempDir dir("builds-same");
  const std::string self = (dir / "dfbench").string();
  // Whatever lies beside it, a host of our own architecture runs this very binary.
  WriteBuild(dir / "dfbench-linux-x86_64", 0755);
  auto chosen = DfbenchBinaryForArch("x86_64", self, "x86_64");
  ASSERT_TRUE(chosen) << chosen.error().message;
  EXPECT_EQ(*chosen, self);
  chosen = DfbenchBinaryForArch("amd64", self, "x86_64");
  ASSERT_TRUE(chosen) << chosen.error().message;
  EXPECT_EQ(*chosen, self);
}

TEST(DfbenchBuilds, OtherArchIsTheClientBuildBeside) {
  const testing::ScopedTempDir dir("builds-other");
  WriteBuild(dir / "dfbench-linux-aarch64", 0755);
  const std::string self = (dir / "dfbench").string();
  for (const char* arch : {"aarch64", "arm64"}) {
    auto chosen = DfbenchBinaryForArch(arch, self, "x86_64");
    ASSERT_TRUE(chosen) << chosen.error().message;
    EXPECT_EQ(*chosen, (dir / "dfbench-linux-aarch64").string());
  }
  // And the other way round: an aarch64 dfbench sends an x86_64 client its x86_64 build.
  WriteBuild(dir / "dfbench-linux-x86_64", 0755);
  auto chosen = DfbenchBinaryForArch("x86_64", self, "aarch64");
  ASSERT_TRUE(chosen) << chosen.error().message;
  EXPECT_EQ(*chosen, (dir / "dfbench-linux-x86_64").string());
}

TEST(DfbenchBuilds, MissingBuildSaysWhatAndHow) {
  const testing::ScopedTempDir dir("builds-missing");
  const std::string self = (dir / "dfbench").string();
  auto chosen = DfbenchBinaryForArch("aarch64", self, "x86_64");
  ASSERT_FALSE(chosen);
  EXPECT_EQ(chosen.error().kind, core::ErrorKind::kEnvironment);
  const std::string& m = chosen.error().message;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_NE(m.find((dir / "dfbench-linux-aarch64").string() + " is missing"), std::string::npos)
      << m;
  EXPECT_NE(m.find("scripts/build-arm64.sh"), std::string::npos) << m;
  EXPECT_NE(m.find("built for x86_64"), std::string::npos) << m;

  // No script makes other architectures: the hint says how to get a build made there.
  chosen = DfbenchBinaryForArch("riscv64", self, "x86_64");
  ASSERT_FALSE(chosen);
  EXPECT_NE(chosen.error().message.find("dfbench-linux-riscv64 is missing"), std::string::npos)
      << chosen.error().message;
  EXPECT_NE(chosen.error().message.find("DFBENCH_CLIENT_ONLY"), std::string::npos)
      << chosen.error().message;
}

TEST(DfbenchBuilds, NonExecutableOrDirectoryIsNoBuild) {
  const testing::ScopedTempDir dir("builds-bad");
  const std::string self = (dir / "dfbench").string();
  WriteBuild(dir / "dfbench-linux-aarch64", 0644);
  EXPECT_FALSE(DfbenchBinaryForArch("aarch64", self, "x86_64"));
  std::filesystem::create_directories(dir / "dfbench-linux-riscv64");
  EXPECT_FALSE(DfbenchBinaryForArch("riscv64", self, "x86_64"));
}

TEST(DfbenchBuilds, ThisProcessRunsOnItsOwnArch) {
  // The one-argument form reads this machine: its own architecture is always served.
  struct utsname u;
  ASSERT_EQ(uname(&u), 0);
  auto chosen = DfbenchBinaryForArch(u.machine);
  ASSERT_TRUE(chosen) << chosen.error().message;
  EXPECT_EQ(*chosen, core::SelfExecutable());
}

}  // namespace
}  // namespace dfbench::hosts
