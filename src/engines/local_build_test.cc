// Which cached build a setup without a pinned version takes, with this machine's redis-server
// (and memcached) as the builds added.
#include "engines/local_build.h"

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/subprocess.h"
#include "support/scoped_temp_dir.h"

namespace dfbench::engines {
namespace {

namespace fs = std::filesystem;
using dfbench::testing::ScopedTempDir;

// A version directory written by hand, as an earlier install would have left it.
void FakeEntry(const fs::path& dir, const std::string& program, const std::string& from,
               const nlohmann::json& manifest) {
  fs::create_directories(dir);
  fs::copy_file(from, dir / program);
  ASSERT_TRUE(core::WriteFileAtomic(dir / kCacheManifest, manifest.dump()));
}

TEST(NewestCachedBuild, IsTheOneAddedLastForThisMachine) {
  const auto redis = core::FindOnPath("redis-server");
  if (!redis) GTEST_SKIP() << "redis-server is not installed";
  ScopedTempDir root("local-build");
  const EngineSpec& spec = *FindEngine("redis");
  EXPECT_FALSE(NewestCachedBuild(root.path(), spec));

  // Older, installed long ago; another architecture's; a staged copy that never finished; a
  // download nobody verified (an older manifest calls it a release), newer.
  FakeEntry(root / "redis" / "6.0.0-x86_64", "redis-server", *redis,
            {{"arch", "x86_64"},
             {"origin", "release"},
             {"checksum", "verified"},
             {"installed_at", "2020-01-01T00:00:00Z"}});
  FakeEntry(root / "redis" / "7.0.0-x86_64", "redis-server", *redis,
            {{"arch", "x86_64"},
             {"origin", "release"},
             {"checksum", "recorded"},
             {"installed_at", "2021-01-01T00:00:00Z"}});
  FakeEntry(root / "redis" / "9.9.9-aarch64", "redis-server", *redis,
            {{"arch", "aarch64"}, {"origin", "release"}, {"installed_at", "2099-01-01T00:00:00Z"}});
  FakeEntry(root / "redis" / ".stage-add.abcdef", "redis-server", *redis,
            {{"arch", "x86_64"}, {"origin", "local"}, {"installed_at", "2099-01-01T00:00:00Z"}});
  fs::create_directories(root / "redis" / "8.0.0-x86_64");  // no manifest: incomplete
  auto older = NewestCachedBuild(root.path(), spec);
  ASSERT_TRUE(older);
  EXPECT_EQ(older->name, "6.0.0-x86_64");

  auto added = AddLocalBuild(root.path(), spec, *redis, OnCached::kRefuse);
  ASSERT_TRUE(added) << added.error().message;
  EXPECT_EQ(added->manifest["origin"], "local");
  auto newest = NewestCachedBuild(root.path(), spec);
  ASSERT_TRUE(newest);
  EXPECT_EQ(newest->dir, added->dir);
  EXPECT_EQ(newest->manifest["sha256"].get<std::string>().size(), 64u);
  // No leftover of its own staging: the hand-made one is the only one.
  int staged = 0;
  for (const auto& e : fs::directory_iterator(root / "redis")) {
    staged += e.path().filename().string().rfind(".stage-", 0) == 0;
  }
  EXPECT_EQ(staged, 1);
  // Another engine's builds are not redis'.
  EXPECT_FALSE(NewestCachedBuild(root.path(), *FindEngine("memcached")));
}

}  // namespace
}  // namespace dfbench::engines
