// Pinned engine versions on the local provider, through the engine cache: a real HTTP server
// (python3 -m http.server on 127.0.0.1) serves release archives built here from the machine's
// own redis-server, as DFBENCH_<ENGINE>_RELEASES lets a mirror do. Valkey is not installed on
// this machine: its "release" is redis-server renamed valkey-server, which serves the same
// protocol, so the setup and the run are real.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "release_server.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The lines of stderr that report an error (progress lines do not).
std::vector<std::string> ErrorLines(const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (line.find("cannot install") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

class EngineCache : public ::testing::Test {
 protected:
  void SetUp() override {
    if (RedisServer().empty()) GTEST_SKIP() << "redis-server is not installed";
  }
  void TearDown() override {
    ::unsetenv("DFBENCH_VALKEY_RELEASES");
    ::unsetenv("DFBENCH_REDIS_RELEASES");
  }
};

TEST_F(EngineCache, ValkeyFromAUrlIsInstalledOnceAndRuns) {
  ReleaseServer server;
  MakeRelease(server, "valkey-8.0.2-jammy-x86_64.tar.gz", "valkey-8.0.2-jammy-x86_64",
              "valkey-server");
  DfbenchRunner dfb("cache-url");
  const std::string url = server.Url("valkey-8.0.2-jammy-x86_64.tar.gz");
  auto r = dfb.Run({"setup", "--id", "v1", "--engines", "valkey", "--valkey_version", url});
  ASSERT_EQ(r.code, 0) << r.err;
  json engine = dfb.State("v1")["engines"][0];
  const std::string binary = engine["binary"];
  EXPECT_EQ(binary.rfind((dfb.home() / "cache" / "engines" / "valkey" / "url-").string(), 0), 0u)
      << binary;
  EXPECT_EQ(engine["origin"], "release");
  EXPECT_EQ(engine["sha256"].get<std::string>().size(), 64u);
  EXPECT_NE(r.err.find("checksum verified"), std::string::npos) << r.err;
  EXPECT_EQ(server.Downloads("valkey-8.0.2-jammy-x86_64.tar.gz"), 1);

  r = dfb.Run(Concat({"run", "--id", "v1", "--engines", "valkey", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  // The results say where the engine came from and what exactly ran.
  json row = json::parse(r.out)["engines"][0];
  EXPECT_EQ(row["engine"], "valkey");
  EXPECT_EQ(row["origin"], "release");
  EXPECT_EQ(row["sha256"], engine["sha256"]);

  // A second setup finds the version in the cache: the server sees no new download.
  r = dfb.Run({"setup", "--id", "v2", "--engines", "valkey", "--valkey_version", url});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(dfb.State("v2")["engines"][0]["binary"], binary);
  EXPECT_EQ(server.Downloads("valkey-8.0.2-jammy-x86_64.tar.gz"), 1);
  EXPECT_EQ(dfb.CacheEntries("valkey").size(), 1u);

  r = dfb.Run({"info", "--id", "v2"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("release"), std::string::npos) << r.out;

  // cache list shows it in use; prune keeps it while a setup runs it and takes the leftover
  // of an install that never finished.
  fs::create_directories(dfb.home() / "cache" / "engines" / "valkey" / ".stage-x-x86_64.abc");
  r = dfb.Run({"cache", "list"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(".stage-x-x86_64.abc"), std::string::npos) << r.out;
  ASSERT_EQ(dfb.Run({"cache", "prune"}).code, 0);
  EXPECT_EQ(dfb.CacheEntries("valkey").size(), 1u);
  ASSERT_EQ(dfb.Run({"destroy", "--id", "v1", "--yes"}).code, 0);
  ASSERT_EQ(dfb.Run({"destroy", "--id", "v2", "--yes"}).code, 0);
  r = dfb.Run({"cache", "prune"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(dfb.CacheEntries("valkey").empty()) << r.out;
  EXPECT_EQ(dfb.Run({"cache"}).code, 2);
}

// The engine's record in a setup's state.json.
json EngineOf(const DfbenchRunner& dfb, const std::string& id, const std::string& name) {
  const json state = dfb.State(id);
  for (const auto& e : state["engines"]) {
    if (e["name"] == name) return e;
  }
  return json::object();
}

// run and run-commands install the version they are given into the setup before running it,
// on the local provider as on SSH hosts.
TEST_F(EngineCache, RunsInstallTheVersionTheyAreGiven) {
  ReleaseServer server;
  MakeRelease(server, "valkey-a.tar.gz", "valkey-a", "valkey-server");
  MakeRelease(server, "valkey-b.tar.gz", "valkey-b", "valkey-server");
  DfbenchRunner dfb("cache-run");
  auto r = dfb.Run({"setup", "--id", "r1", "--engines", "redis,valkey", "--valkey_version",
                    server.Url("valkey-a.tar.gz")});
  ASSERT_EQ(r.code, 0) << r.err;
  const json first = EngineOf(dfb, "r1", "valkey");

  // An engine the run leaves out keeps its version; its other flags are said to be ignored too.
  r = dfb.Run(Concat({"run", "--id", "r1", "--engines", "redis", "--valkey_version",
                      server.Url("valkey-b.tar.gz"), "--valkey_shards", "3"},
                     kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("--valkey_version ignored: valkey is not among the engines of this run"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--valkey_shards ignored: valkey is not among the engines of this run"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(server.Downloads("valkey-b.tar.gz"), 0);
  EXPECT_EQ(EngineOf(dfb, "r1", "valkey"), first);

  r = dfb.Run(Concat({"run", "--id", "r1", "--engines", "valkey", "--valkey_version",
                      server.Url("valkey-b.tar.gz"), "--output", "json"},
                     kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  const json second = EngineOf(dfb, "r1", "valkey");
  EXPECT_NE(second["binary"], first["binary"]);
  EXPECT_EQ(server.Downloads("valkey-b.tar.gz"), 1);
  json row = json::parse(r.out)["engines"][0];
  EXPECT_EQ(row["origin"], "release");
  EXPECT_EQ(row["sha256"], second["sha256"]);

  // run-commands takes the same flags; the first version is still cached: no download.
  r = dfb.Run(Concat({"run-commands", "--id", "r1", "--engines", "valkey", "--valkey_version",
                      server.Url("valkey-a.tar.gz"), "--command", "GET", "--output", "json"},
                     kSmallCommandRun));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(server.Downloads("valkey-a.tar.gz"), 1);
  EXPECT_EQ(EngineOf(dfb, "r1", "valkey")["binary"], first["binary"]);
  row = json::parse(r.out)["commands"][0]["engines"][0];
  EXPECT_EQ(row["origin"], "release");
  EXPECT_EQ(row["sha256"], first["sha256"]);
}

TEST_F(EngineCache, TagsResolveAgainstTheMirror) {
  ReleaseServer server;
  // This machine is Debian 12: Valkey's Ubuntu 22.04 (jammy) build matches it.
  MakeRelease(server, "valkey-8.1.0-jammy-x86_64.tar.gz", "valkey-8.1.0-jammy-x86_64",
              "valkey-server", /*checksum=*/false);
  ::setenv("DFBENCH_VALKEY_RELEASES", server.Url().c_str(), 1);
  DfbenchRunner dfb("cache-tag");
  auto r = dfb.Run({"setup", "--id", "t1", "--engines", "valkey", "--valkey_version", "8.1.0"});
  if (r.code != 0 && r.err.find("jammy") == std::string::npos) {
    GTEST_SKIP() << "this OS has no matching Valkey build: " << r.err;
  }
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("no published checksum"), std::string::npos) << r.err;
  EXPECT_EQ(dfb.CacheEntries("valkey"), std::vector<std::string>{"8.1.0-x86_64"});
}

// An archive with no published checksum is a download, not a release: recorded so, reused only
// when its version is asked for again (and said to be unverified then), never picked as the
// newest cached build for a setup that names no version.
TEST_F(EngineCache, AnUnverifiedDownloadIsRecordedAsOneAndNeverPickedSilently) {
  ReleaseServer server;
  MakeRelease(server, "valkey-u.tar.gz", "valkey-u", "valkey-server", /*checksum=*/false);
  DfbenchRunner dfb("cache-unverified");
  const std::string url = server.Url("valkey-u.tar.gz");
  auto r = dfb.Run({"setup", "--id", "u1", "--engines", "valkey", "--valkey_version", url});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("no published checksum"), std::string::npos) << r.err;
  EXPECT_EQ(dfb.State("u1")["engines"][0]["origin"], "download");
  r = dfb.Run({"cache", "list"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("download"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("release"), std::string::npos) << r.out;
  dfb.RunOk({"destroy", "--id", "u1", "--yes"});

  r = dfb.Run({"setup", "--id", "u2", "--engines", "valkey", "--valkey_version", url});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(server.Downloads("valkey-u.tar.gz"), 1);
  EXPECT_NE(r.err.find("(downloaded from " + url + " with no published checksum to verify it)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(dfb.State("u2")["engines"][0]["origin"], "download");
  dfb.RunOk({"destroy", "--id", "u2", "--yes"});

  if (core::FindOnPath("valkey-server")) GTEST_SKIP() << "valkey-server is on PATH here";
  r = dfb.Run({"setup", "--id", "u3", "--engines", "valkey"});
  EXPECT_NE(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("from the engine cache"), std::string::npos) << r.err;
}

// quickstart fetches an engine that is not installed (its latest release) where the mirror has
// it, and skips it with one line saying why where it has not.
TEST_F(EngineCache, QuickstartFetchesMissingEnginesOrSaysWhyNot) {
  if (core::FindOnPath("valkey-server")) GTEST_SKIP() << "valkey-server is installed here";
  ReleaseServer server;
  ::setenv("DFBENCH_VALKEY_RELEASES", server.Url().c_str(), 1);
  DfbenchRunner dfb("cache-quickstart");
  auto r = dfb.Run(Concat(
      {"quickstart", "--id", "q1", "--engines", "redis,valkey", "--output", "json"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("skipping valkey: \"valkey-server\" not found on PATH"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(HTTP 404)"), std::string::npos) << r.err;

  MakeRelease(server, std::string("valkey-8.0.2-jammy-x86_64.tar.gz"), "valkey-8.0.2-jammy-x86_64",
              "valkey-server");
  r = dfb.Run(Concat({"quickstart", "--id", "q2", "--engines", "redis,valkey", "--output", "json"},
                     kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  json out = json::parse(r.out);
  ASSERT_EQ(out["engines"].size(), 2u) << r.err;
  EXPECT_EQ(out["engines"][1]["engine"], "valkey");
  EXPECT_EQ(dfb.CacheEntries("valkey"), std::vector<std::string>{"8.0.2-x86_64"});
}

// Redis' source release built on this machine. The source tree is the test's own: its Makefile
// copies the machine's real redis-server into src/, so the "build" is quick and what it makes
// really serves the run.
TEST_F(EngineCache, RedisSourceReleaseIsBuiltOnTheHost) {
  ReleaseServer server;
  fs::create_directories(server.dir() / "redis-7.4.2" / "src");
  {
    std::ofstream mk(server.dir() / "redis-7.4.2" / "Makefile");
    mk << "all:\n\t@echo CC server.o\n\tcp " << RedisServer() << " src/redis-server\n";
  }
  Shell(server.dir(), "tar czf redis-7.4.2.tar.gz redis-7.4.2 && rm -rf redis-7.4.2");
  ::setenv("DFBENCH_REDIS_RELEASES", server.Url().c_str(), 1);
  DfbenchRunner dfb("cache-build");
  auto r = dfb.Run({"setup", "--id", "b1", "--engines", "redis", "--redis_version", "7.4.2"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("[build] make"), std::string::npos) << r.err;
  json engine = dfb.State("b1")["engines"][0];
  EXPECT_EQ(engine["origin"], "build");
  EXPECT_EQ(
      engine["binary"],
      (dfb.home() / "cache" / "engines" / "redis" / "7.4.2-x86_64" / "redis-server").string());
  r = dfb.Run(Concat({"run", "--id", "b1", "--engines", "redis"}, kSmallRun));
  EXPECT_EQ(r.code, 0) << r.err;
  // The same source tree as a local archive: handed over as it is and built by the cache.
  r = dfb.Run({"setup", "--id", "b2", "--engines", "redis", "--redis_version",
               (server.dir() / "redis-7.4.2.tar.gz").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("[build] make"), std::string::npos) << r.err;
  EXPECT_EQ(dfb.State("b2")["engines"][0]["origin"], "build");
}

// Each failure: exit code 5, one line naming the cause, nothing in the cache.
TEST_F(EngineCache, FailuresSayWhyAndLeaveTheCacheClean) {
  ReleaseServer server;
  // A wrong published checksum.
  MakeRelease(server, "bad-sum.tar.gz", "bad-sum", "valkey-server");
  Shell(server.dir(), "echo " + std::string(64, '0') + " > bad-sum.tar.gz.sha256");
  // An archive without the engine's binary.
  fs::create_directories(server.dir() / "empty");
  Shell(server.dir(), "echo hi > empty/README && tar czf empty.tar.gz empty");
  // A binary for another architecture: only its ELF header matters, so the file is the header.
  fs::create_directories(server.dir() / "arm" / "bin");
  ASSERT_TRUE(
      core::WriteFileAtomic(server.dir() / "arm" / "bin" / "valkey-server", Aarch64ElfHeader()));
  Shell(server.dir(), "tar czf arm.tar.gz arm");
  // A source tree whose build fails.
  fs::create_directories(server.dir() / "broken");
  Shell(
      server.dir(),
      "printf 'all:\\n\\t@echo compile error: no such header >&2; exit 1\\n' > broken/Makefile && "
      "tar czf broken.tar.gz broken");
  ::setenv("DFBENCH_VALKEY_RELEASES", server.Url().c_str(), 1);

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"9.9.9", "(HTTP 404)"},
      {server.Url("bad-sum.tar.gz"), "checksum mismatch"},
      {server.Url("empty.tar.gz"), "holds no valkey-server and no source tree"},
      {server.Url("arm.tar.gz"), "holds a binary built for aarch64, but the host is x86_64"},
      {server.Url("broken.tar.gz"), "the build of " + server.Url("broken.tar.gz") + " failed"},
  };
  DfbenchRunner dfb("cache-errors");
  for (const auto& [version, why] : cases) {
    auto r = dfb.Run({"setup", "--id", "e", "--engines", "valkey", "--valkey_version", version});
    EXPECT_EQ(r.code, 5) << version << ": " << r.err;
    auto errors = ErrorLines(r.err);
    ASSERT_EQ(errors.size(), 1u) << version << ": " << r.err;
    EXPECT_NE(errors[0].find(why), std::string::npos) << errors[0];
    EXPECT_TRUE(dfb.CacheEntries("valkey").empty()) << version;
    (void)dfb.Run({"destroy", "--id", "e", "--yes"});
  }
}

}  // namespace
}  // namespace dfbench::testing
