// `dfbench cache add`: a build already on this machine enters the engine cache as a download
// would, and a local setup that names no binary finds it there. The builds are the real ones:
// the test beds' Dragonfly, and this machine's redis-server and memcached.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <regex>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "release_server.h"
#include "support/test_data.h"
#include "support/testbed_engines.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// sha256sum's digest of `file`: a second opinion on the manifest's.
std::string Sha256Sum(const fs::path& file) {
  auto r = core::RunCapture({"sha256sum", file.string()}, std::chrono::seconds(30));
  if (!r || !r->status.ok()) return "";
  return r->out.substr(0, 64);
}

json Manifest(const DfbenchRunner& dfb, const std::string& engine, const std::string& name) {
  auto text =
      core::ReadFile(dfb.home() / "cache" / "engines" / engine / name / "dfbench-install.json");
  return text ? json::parse(*text) : json::object();
}

TEST(CacheAdd, DragonflyBuildIsFoundWithoutTheFlag) {
  if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
  if (core::FindOnPath("dragonfly")) GTEST_SKIP() << "dragonfly is on PATH: it would come first";
  DfbenchRunner dfb("cache-add-dragonfly");
  const std::string source = DragonflyBinary().lexically_normal().string();
  auto r = dfb.Run({"cache", "add", "dragonfly", source});
  ASSERT_EQ(r.code, 0) << r.err;

  // One complete version directory, named by the version the binary reports: "v1.40.0" or,
  // between tags, "v1.40.0-87-gf8eca6d0b".
  const auto entries = dfb.CacheEntries("dragonfly");
  ASSERT_EQ(entries.size(), 1u);
  const std::string& name = entries[0];
  std::smatch m;
  ASSERT_TRUE(std::regex_match(name, m, std::regex(R"((v\d+\.\d+\.\d+(-\d+-g[0-9a-f]+)?)-x86_64)")))
      << name;
  const std::string label = m[1];
  const json manifest = Manifest(dfb, "dragonfly", name);
  EXPECT_EQ(manifest["origin"], "local");
  EXPECT_EQ(manifest["source_path"], source);
  EXPECT_EQ(manifest["label"], label);
  EXPECT_EQ(manifest["checksum"], "recorded");
  const std::string sha256 = Sha256Sum(source);
  EXPECT_EQ(manifest["sha256"], sha256);
  EXPECT_EQ(manifest["version"].get<std::string>().find('\x1b'), std::string::npos)
      << manifest["version"];
  EXPECT_NE(r.out.find("added dragonfly " + label), std::string::npos) << r.out;

  r = dfb.Run({"cache", "list"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(name), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("local"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(sha256.substr(0, 12)), std::string::npos) << r.out;

  // The same version again: refused in one line, unless --force replaces it.
  r = dfb.Run({"cache", "add", "dragonfly", source});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("dragonfly " + label + " is cached already"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  r = dfb.Run({"cache", "add", "dragonfly", source, "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(dfb.CacheEntries("dragonfly"), std::vector<std::string>{name});

  // A setup without --dragonfly_binary records the cached build, and a run starts it.
  const std::string cached =
      (dfb.home() / "cache" / "engines" / "dragonfly" / name / "dragonfly").string();
  r = dfb.Run({"setup", "--id", "d1", "--engines", "dragonfly"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("from the engine cache"), std::string::npos) << r.err;
  json engine = dfb.State("d1")["engines"][0];
  EXPECT_EQ(engine["binary"], cached);
  EXPECT_EQ(engine["origin"], "local");
  EXPECT_EQ(engine["sha256"], sha256);
  EXPECT_NE(engine["version"].get<std::string>().find(label), std::string::npos) << engine;
  r = dfb.Run(
      Concat({"run", "--id", "d1", "--engines", "dragonfly", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  const json row = json::parse(r.out)["engines"][0];
  EXPECT_EQ(row["engine"], "dragonfly");
  EXPECT_EQ(row["origin"], "local");
  EXPECT_EQ(row["sha256"], sha256);

  // Pinned by the version the cache names it with: found there, nothing is downloaded.
  r = dfb.Run({"setup", "--id", "d2", "--engines", "dragonfly", "--dragonfly_version", label});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(dfb.State("d2")["engines"][0]["binary"], cached);
  EXPECT_EQ(dfb.State("d2")["engines"][0]["origin"], "local");
  EXPECT_EQ(r.err.find("downloading"), std::string::npos) << r.err;

  // In use, the build survives a prune.
  ASSERT_EQ(dfb.Run({"cache", "prune"}).code, 0);
  EXPECT_EQ(dfb.CacheEntries("dragonfly"), std::vector<std::string>{name});
  ASSERT_EQ(dfb.Run({"destroy", "--id", "d1", "--yes"}).code, 0);
  ASSERT_EQ(dfb.Run({"destroy", "--id", "d2", "--yes"}).code, 0);
}

// The engine on PATH comes before the newest cached build; a pinned version picks the cached
// one by name.
TEST(CacheAdd, PathComesFirstAndAVersionPicksTheCachedBuild) {
  if (RedisServer().empty()) GTEST_SKIP() << "redis-server is not installed";
  DfbenchRunner dfb("cache-add-redis");
  auto r = dfb.Run({"cache", "add", "redis", RedisServer()});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto entries = dfb.CacheEntries("redis");
  ASSERT_EQ(entries.size(), 1u);
  const std::string label = Manifest(dfb, "redis", entries[0])["label"];
  EXPECT_TRUE(std::regex_match(label, std::regex(R"(\d+\.\d+\.\d+)"))) << label;

  r = dfb.Run({"setup", "--id", "p", "--engines", "redis"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(dfb.State("p")["engines"][0]["binary"], *core::FindOnPath("redis-server"));
  EXPECT_EQ(dfb.State("p")["engines"][0]["origin"], "system");

  r = dfb.Run({"setup", "--id", "v", "--engines", "redis", "--redis_version", label});
  ASSERT_EQ(r.code, 0) << r.err;
  const json engine = dfb.State("v")["engines"][0];
  EXPECT_EQ(engine["binary"],
            (dfb.home() / "cache" / "engines" / "redis" / entries[0] / "redis-server").string());
  EXPECT_EQ(engine["origin"], "local");
  ASSERT_EQ(dfb.Run({"destroy", "--id", "p", "--yes"}).code, 0);
  ASSERT_EQ(dfb.Run({"destroy", "--id", "v", "--yes"}).code, 0);
}

// Each refusal: exit code 2, one line naming the cause, nothing in the cache.
TEST(CacheAdd, BadInputsAreRefusedInOneLine) {
  const auto memcached = core::FindOnPath("memcached");
  if (RedisServer().empty() || !memcached) GTEST_SKIP() << "redis-server or memcached missing";
  DfbenchRunner dfb("cache-add-bad");
  const fs::path dir = dfb.home() / "inputs";
  fs::create_directories(dir);
  ASSERT_TRUE(core::WriteFileAtomic(dir / "plain", "not a program\n", 0644));
  ASSERT_TRUE(core::WriteFileAtomic(dir / "script", "#!/bin/sh\necho dragonfly v1.0.0\n", 0755));
  // Only the ELF header is read before the architecture is refused.
  ASSERT_TRUE(core::WriteFileAtomic(dir / "arm", Aarch64ElfHeader(), 0755));

  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"dragonfly", (dir / "missing").string()}, "missing: not an executable file"},
      {{"dragonfly", (dir / "plain").string()}, "plain: not an executable file"},
      {{"dragonfly", (dir / "script").string()}, "script is not an ELF executable"},
      {{"dragonfly", (dir / "arm").string()}, "arm is built for aarch64, but this machine is"},
      {{"valkey", RedisServer()}, "is not valkey: its version line is \"Redis server v="},
      {{"dragonfly", *memcached}, "is not dragonfly"},
      {{"keydb", RedisServer()}, "cache add keydb: not an engine"},
  };
  for (const auto& [args, why] : cases) {
    auto r = dfb.Run(Concat({"cache", "add"}, args));
    EXPECT_EQ(r.code, 2) << args[1] << ": " << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dfb.home() / "cache" / "engines"));
  EXPECT_EQ(dfb.Run({"cache", "add", "dragonfly"}).code, 2);
}

}  // namespace
}  // namespace dfbench::testing
