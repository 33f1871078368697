// --client-stats through the binary against a real redis-server: one CSV per client, named and
// laid out as memtier_benchmark 2.3.0 writes them, whose requests add up to the run's and the
// server's.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "core/files.h"
#include "core/subprocess.h"
#include "loadgen_run.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"

namespace dfbench {
namespace {

namespace fs = std::filesystem;
using testing::Capture;
using testing::ScopedTempDir;
using testing::TestServer;

std::vector<std::string> Lines(const fs::path& file) {
  const auto text = core::ReadFile(file);
  EXPECT_TRUE(text) << file;
  std::vector<std::string> lines;
  std::istringstream in(text ? *text : "");
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines that are not figures: titles, column names and the blank lines between sections.
std::vector<std::string> Layout(const std::vector<std::string>& lines) {
  std::vector<std::string> layout;
  for (const auto& line : lines) {
    if (line.empty() || (!std::isdigit(static_cast<unsigned char>(line[0])) && line[0] != ' ')) {
      layout.push_back(line);
    }
  }
  return layout;
}

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
  return fields;
}

// The per-second rows' SET and GET requests, summed.
struct Requests {
  uint64_t sets = 0;
  uint64_t gets = 0;
};
Requests PerSecondRequests(const std::vector<std::string>& lines) {
  Requests r;
  for (size_t i = 2; i < lines.size() && !lines[i].empty(); ++i) {
    const auto f = Split(lines[i]);
    EXPECT_EQ(f.size(), 15u) << lines[i];
    if (f.size() != 15) continue;
    r.sets += std::stoull(f[1]);
    r.gets += std::stoull(f[6]);
  }
  return r;
}

std::vector<std::string> FilesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

const std::vector<std::string> kClientFiles = {"cs-1-0-0.csv", "cs-1-0-1.csv", "cs-1-1-0.csv",
                                               "cs-1-1-1.csv"};

TEST(LoadgenClientStats, OneFilePerClientAddingUpToTheServersCount) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-client-stats");
  fs::create_directories(dir / "ours");
  constexpr uint64_t kPerClient = 300;
  auto out = Capture({LOADGEN_BINARY, "loadgen", "-p", std::to_string(server->port()), "-t", "2",
                      "-c", "2", "-n", std::to_string(kPerClient), "--ratio", "1:3",
                      "--client-stats", (dir / "ours" / "cs").string()});
  ASSERT_EQ(out.status.code, 0) << out.err;
  EXPECT_NE(out.err.find("[RUN 1] Writing client stats files...\n"), std::string::npos) << out.err;
  ASSERT_EQ(FilesIn(dir / "ours"), kClientFiles);
  Requests all;
  for (const auto& name : kClientFiles) {
    const Requests r = PerSecondRequests(Lines(dir / "ours" / name));
    EXPECT_EQ(r.sets + r.gets, kPerClient) << name;
    all.sets += r.sets;
    all.gets += r.gets;
  }
  EXPECT_EQ(all.sets, server->Calls("set"));
  EXPECT_EQ(all.gets, server->Calls("get"));
  EXPECT_GT(all.sets, 0u);
  EXPECT_GT(all.gets, 0u);
}

TEST(LoadgenClientStats, NamesAndLayoutAreMemtiers) {
  if (const std::string why = testing::MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-client-stats");
  const std::vector<std::string> args = {
      "-p", std::to_string(server->port()), "-t", "2", "-c", "2", "-n", "200", "--hide-histogram"};
  std::map<std::string, std::vector<std::string>> runs = {
      {"memtier", {testing::MemtierBinary().string()}}, {"ours", {LOADGEN_BINARY, "loadgen"}}};
  for (auto& [who, argv] : runs) {
    fs::create_directories(dir / who);
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--client-stats", (dir / who / "cs").string()});
    const auto out = Capture(argv);
    ASSERT_EQ(out.status.code, 0) << who << ": " << out.err;
  }
  ASSERT_EQ(FilesIn(dir / "memtier"), kClientFiles);
  ASSERT_EQ(FilesIn(dir / "ours"), kClientFiles);
  for (const auto& name : kClientFiles) {
    const auto theirs = Lines(dir / "memtier" / name);
    const auto ours = Lines(dir / "ours" / name);
    ASSERT_GE(theirs.size(), 3u) << name;
    ASSERT_GE(ours.size(), 3u) << name;
    EXPECT_EQ(Layout(ours), Layout(theirs)) << name;
    // A row of figures has memtier's columns, in its formats.
    EXPECT_EQ(Split(ours[2]).size(), Split(theirs[2]).size()) << ours[2] << " vs " << theirs[2];
    EXPECT_EQ(ours.back(), theirs.back()) << name;  // the empty WAIT table
  }
}

TEST(LoadgenClientStats, AMissingDirectoryIsAUsageErrorNamingTheFlag) {
  const ScopedTempDir dir("loadgen-client-stats");
  const auto out = Capture(
      {LOADGEN_BINARY, "loadgen", "-n", "1", "--client-stats", (dir / "missing" / "cs").string()});
  EXPECT_EQ(out.status.code, 2) << out.err;
  EXPECT_EQ(out.err.rfind("dfbench: --client-stats: ", 0), 0u) << out.err;
}

}  // namespace
}  // namespace dfbench
