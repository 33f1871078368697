// Pinned engine versions on the local provider, through the engine cache: a real HTTP server
// (python3 -m http.server on 127.0.0.1) serves release archives built here from the machine's
// own redis-server, as DFBENCH_<ENGINE>_RELEASES lets a mirror do. Valkey is not installed on
// this machine: its "release" is redis-server renamed valkey-server, which serves the same
// protocol, so the setup and the run are real.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <thread>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/test_server.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// `sh -c script` in `dir`; the test fails when it does.
void Shell(const fs::path& dir, const std::string& script) {
  auto r = core::RunCapture({"sh", "-c", "cd \"$0\" && " + script, dir.string()},
                            std::chrono::minutes(1));
  ASSERT_TRUE(r && r->status.ok()) << script << ": " << (r ? r->err : r.error().message);
}

std::string RedisServer() {
  auto r = core::RunCapture({"sh", "-c", "command -v redis-server"}, std::chrono::seconds(10));
  return r && r->status.ok() ? r->out.substr(0, r->out.find('\n')) : "";
}

// A directory of release files served over HTTP, with the server's access log.
class ReleaseServer {
 public:
  ReleaseServer()
      : dir_("releases"), log_(dir_ / ".." / (dir_.path().filename().string() + ".log")) {
    port_ = FreePort();
    auto p = core::Spawn({.argv = {"python3", "-m", "http.server", std::to_string(port_), "--bind",
                                   "127.0.0.1", "--directory", dir_.path().string()},
                          .stdout_path = log_.string(),
                          .stderr_path = log_.string()});
    if (p) process_ = std::move(*p);
    for (int i = 0; i < 100 && !Listening(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~ReleaseServer() {
    process_.Terminate(std::chrono::seconds(2));
    std::error_code ec;
    fs::remove(log_, ec);
  }
  std::string Url(const std::string& file = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + (file.empty() ? "" : "/" + file);
  }
  const fs::path& dir() const { return dir_.path(); }
  // The GET requests for `file` so far.
  int Downloads(const std::string& file) const {
    auto text = core::ReadFile(log_);
    int n = 0;
    const std::string needle = "\"GET /" + file + " ";
    for (size_t pos = 0; text && (pos = text->find(needle, pos)) != std::string::npos; ++pos) ++n;
    return n;
  }

 private:
  bool Listening() const {
    auto r =
        core::RunCapture({"curl", "-fsS", "-o", "/dev/null", Url() + "/"}, std::chrono::seconds(5));
    return r && r->status.ok();
  }
  ScopedTempDir dir_;
  fs::path log_;
  int port_ = 0;
  core::Process process_;
};

// A release archive holding `program` (a copy of redis-server) under `top`/bin, and its
// published checksum unless `checksum` is false.
void MakeRelease(const ReleaseServer& server, const std::string& archive, const std::string& top,
                 const std::string& program, bool checksum = true) {
  fs::create_directories(server.dir() / top / "bin");
  fs::copy_file(RedisServer(), server.dir() / top / "bin" / program,
                fs::copy_options::overwrite_existing);
  Shell(server.dir(), "tar czf " + archive + " " + top + " && rm -rf " + top);
  if (checksum) Shell(server.dir(), "sha256sum " + archive + " > " + archive + ".sha256");
}

// Every entry of the engine cache (staging leftovers included).
std::vector<std::string> CacheEntries(const DfbenchRunner& dfb, const std::string& engine) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dfb.home() / "cache" / "engines" / engine, ec)) {
    names.push_back(e.path().filename().string());
  }
  return names;
}

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

  r = dfb.Run(Concat({"run", "--id", "v1", "--engines", "valkey"}, kSmallRun));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("valkey"), std::string::npos) << r.out;

  // A second setup finds the version in the cache: the server sees no new download.
  r = dfb.Run({"setup", "--id", "v2", "--engines", "valkey", "--valkey_version", url});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(dfb.State("v2")["engines"][0]["binary"], binary);
  EXPECT_EQ(server.Downloads("valkey-8.0.2-jammy-x86_64.tar.gz"), 1);
  EXPECT_EQ(CacheEntries(dfb, "valkey").size(), 1u);

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
  EXPECT_EQ(CacheEntries(dfb, "valkey").size(), 1u);
  ASSERT_EQ(dfb.Run({"destroy", "--id", "v1", "--yes"}).code, 0);
  ASSERT_EQ(dfb.Run({"destroy", "--id", "v2", "--yes"}).code, 0);
  r = dfb.Run({"cache", "prune"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(CacheEntries(dfb, "valkey").empty()) << r.out;
  EXPECT_EQ(dfb.Run({"cache"}).code, 2);
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
  EXPECT_EQ(CacheEntries(dfb, "valkey"), std::vector<std::string>{"8.1.0-x86_64"});
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
  EXPECT_EQ(CacheEntries(dfb, "valkey"), std::vector<std::string>{"8.0.2-x86_64"});
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
    EXPECT_TRUE(CacheEntries(dfb, "valkey").empty()) << version;
    (void)dfb.Run({"destroy", "--id", "e", "--yes"});
  }
}

}  // namespace
}  // namespace dfbench::testing
