// Bad numbers through the real binary, against a real setup (Redis on this machine) that a value
// let through would benchmark: for every benchmark command, values past the edges of every
// ranged flag its --help lists (one past each end, negatives, numbers past 64 bits, suffixes
// that overflow, malformed text) must end in exit 2 with one line naming the flag, quickly,
// before anything starts: no run directory, no history entry, no setup, no process left.
//
// The flags and ranges are read from each command's --help ("--trials INT:[1 to 1000]"), which
// shows the table the flags are registered from, so a ranged flag added later is covered.
// DFBENCH_PROPERTY_SEED=<n> replays a run; every failure prints the seed and the argv.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dfbench_runner.h"
#include "support/test_server.h"

namespace dfbench::testing {
namespace {

constexpr char kId[] = "numbers";

// A ranged flag as --help shows it.
struct Ranged {
  std::string command;
  std::string flag;
  std::string min;
  std::string max;
};

// The command line each command runs on the setup, were the value let through.
const std::map<std::string, std::vector<std::string>>& Bases() {
  static const std::map<std::string, std::vector<std::string>> bases = {
      {"run", {"--id", kId, "--engines", "redis"}},
      {"quickstart", {"--engines", "redis", "--yes"}},
      {"sweep", {"--id", kId, "--engines", "redis", "--slo", "p99<=1ms"}},
      {"run-commands", {"--id", kId, "--engines", "redis", "--command", "SET"}},
      {"run-commands-dfly", {"--id", kId, "--engines", "redis", "--command", "SET"}},
      {"run-memory", {"--id", kId, "--engines", "redis", "--snapshot", "none"}},
      {"run-replication", {"--id", kId, "--engines", "redis"}},
  };
  return bases;
}

std::vector<Ranged> RangedFlags(const DfbenchRunner& dfb) {
  static const std::regex kLine(R"(^\s+(--[a-z0-9_-]+)(?:,\S+)?\s+\S*:\[(\S+) to (\S+)\])");
  std::vector<Ranged> flags;
  for (const auto& [command, base] : Bases()) {
    const CliResult help = dfb.Run({command, "--help"});
    std::istringstream in(help.out);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_search(line, m, kLine)) flags.push_back({command, m[1], m[2], m[3]});
    }
  }
  return flags;
}

bool IsDuration(const std::string& text) {
  return !text.empty() && std::isalpha(static_cast<unsigned char>(text.back()));
}

// Seconds of a range end written as --help writes it (0s, 1s, 24h).
int64_t Seconds(const std::string& text) {
  const int64_t n = std::stoll(text);
  switch (text.back()) {
    case 'h':
      return n * 3600;
    case 'm':
      return n * 60;
    default:
      return n;
  }
}

// Values outside `r`: one past each end, negatives, past 64 bits, overflowing suffixes,
// malformed text.
std::vector<std::string> BadValues(const Ranged& r) {
  std::string prefix;
  std::string min = r.min;
  if (min.rfind("qps=", 0) == 0) {  // --cases: qps=<n> words
    prefix = "qps=";
    min = min.substr(4);
  }
  std::vector<std::string> values;
  if (IsDuration(r.max)) {
    values = {
        std::to_string(Seconds(r.max) + 1) + "s", "-5s", "99999999999999999999h", "5x", "", "1e3s"};
    if (Seconds(min) > 0) values.push_back(std::to_string(Seconds(min) * 1000 - 1) + "ms");
  } else {
    values = {std::to_string(std::stoll(r.max) + 1),
              std::to_string(std::stoll(min) - 1),
              "-1",
              "18446744073709551616",
              "99999999999999999999G",
              "-99999999999999999999",
              "abc",
              "",
              "0x10"};
  }
  std::vector<std::string> outside;
  for (const auto& v : values) {
    // "-1" is inside --dragonfly_num_shards' range.
    if (!IsDuration(r.max) && !v.empty() &&
        v.find_first_not_of("-0123456789") == std::string::npos && v.size() < 19 &&
        std::stoll(v) >= std::stoll(min) && std::stoll(v) <= std::stoll(r.max)) {
      continue;
    }
    outside.push_back(prefix + v);
  }
  return outside;
}

std::set<std::string> Entries(const std::filesystem::path& dir) {
  std::set<std::string> entries;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    entries.insert(e.path().string());
  }
  return entries;
}

class NumbersFault : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dfb_ = new DfbenchRunner("numbers-fault");
    const CliResult r =
        dfb_->Run({"setup", "--id", kId, "--engines", "redis", "--provider", "local", "--yes"});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() { EndSuiteSetup(dfb_, kId); }
  static DfbenchRunner* dfb_;
};
DfbenchRunner* NumbersFault::dfb_ = nullptr;

TEST_F(NumbersFault, ValuesOutsideTheirRangeStopBeforeAnythingStarts) {
  ASSERT_NE(dfb_, nullptr);
  const std::vector<Ranged> flags = RangedFlags(*dfb_);
  std::set<std::string> commands_seen;
  std::vector<std::vector<std::string>> argvs;
  for (const Ranged& r : flags) {
    commands_seen.insert(r.command);
    for (const std::string& value : BadValues(r)) {
      std::vector<std::string> argv = {r.command};
      const auto& base = Bases().at(r.command);
      argv.insert(argv.end(), base.begin(), base.end());
      argv.push_back(r.flag + "=" + value);
      argvs.push_back(argv);
    }
  }
  EXPECT_EQ(commands_seen.size(), Bases().size()) << "a command lists no ranged flag in --help";
  const char* seed_text = std::getenv("DFBENCH_PROPERTY_SEED");
  const uint64_t seed = seed_text ? std::stoull(seed_text) : std::random_device{}();
  std::mt19937_64 rng(seed);
  std::shuffle(argvs.begin(), argvs.end(), rng);
  if (argvs.size() > 300) argvs.resize(300);
  std::printf("seed %llu: %zu ranged flags, %zu command lines\n",
              static_cast<unsigned long long>(seed), flags.size(), argvs.size());

  const auto setup_before = Entries(dfb_->SetupDir(kId));
  const auto history_before = dfb_->State(kId)["history"].dump();
  for (const auto& argv : argvs) {
    std::string shown = "seed " + std::to_string(seed) + ": dfbench";
    for (const auto& a : argv) shown += " '" + a + "'";
    const CliResult r = dfb_->Run(argv, std::chrono::seconds(10));
    EXPECT_EQ(r.code, 2) << shown << "\n" << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find(argv.back().substr(0, argv.back().find('='))), std::string::npos)
        << shown << "\n"
        << r.err;
    // Nothing started: no run directory, no history entry, no other setup, nothing running.
    EXPECT_EQ(Entries(dfb_->SetupDir(kId)), setup_before) << shown;
    EXPECT_EQ(dfb_->State(kId)["history"].dump(), history_before) << shown;
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dfb_->home() / "runs"),
                            std::filesystem::directory_iterator{}),
              1)
        << shown;
    EXPECT_TRUE(ProcessesMatching(dfb_->home().string()).empty()) << shown;
    if (::testing::Test::HasFailure()) return;  // the first failure says enough
  }
}

// A deprecated spelling given beside its new flag with another value: one line naming both,
// exit 2, nothing run; the same value twice runs as one.
TEST_F(NumbersFault, DeprecatedSpellingDisagreeingWithItsFlagStopsBeforeAnythingStarts) {
  ASSERT_NE(dfb_, nullptr);
  const auto history_before = dfb_->State(kId)["history"].dump();
  const CliResult r = dfb_->Run(
      {"run", "--id", kId, "--engines", "redis", "--io-threads", "2", "--redis_io_threads", "4"},
      std::chrono::seconds(10));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--io-threads 2 and --redis_io_threads 4"), std::string::npos) << r.err;
  EXPECT_EQ(dfb_->State(kId)["history"].dump(), history_before);
  EXPECT_TRUE(ProcessesMatching(dfb_->home().string()).empty());
}

// run-memory's deprecated spellings (the engine tuning's) go through the same check as run's,
// and its short names (--threads for --memtier-threads) are one flag: two values given under
// both are refused, not one silently taken.
TEST_F(NumbersFault, RunMemoryRefusesDisagreeingSpellingsBeforeAnythingStarts) {
  ASSERT_NE(dfb_, nullptr);
  const auto history_before = dfb_->State(kId)["history"].dump();
  const std::vector<std::string> base = {"run-memory", "--id",       kId,   "--engines",
                                         "redis",      "--snapshot", "none"};
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--io-threads", "2", "--redis_io_threads", "4"}, "--io-threads 2 and --redis_io_threads 4"},
      {{"--num-shards", "2", "--dragonfly_num_shards", "3"},
       "--num-shards 2 and --dragonfly_num_shards 3"},
      {{"--threads", "2", "--memtier-threads", "3"}, "--memtier-threads"},
      {{"--clients", "2", "--memtier-clients", "3"}, "--memtier-clients"},
  };
  for (const auto& [flags, message] : cases) {
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), flags.begin(), flags.end());
    const CliResult r = dfb_->Run(argv, std::chrono::seconds(10));
    EXPECT_EQ(r.code, 2) << flags.front() << ": " << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  EXPECT_EQ(dfb_->State(kId)["history"].dump(), history_before);
  EXPECT_TRUE(ProcessesMatching(dfb_->home().string()).empty());
}

// loadgen's numbers against a real Redis that a value let through would load: each refused
// with exit 2 and one line naming the flag and its range, and not one key written.
TEST(NumbersFaultLoadgen, ValuesOutsideTheirRangeSendNothing) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  DfbenchRunner dfb("numbers-fault-loadgen");
  const std::vector<std::string> base = {
      "loadgen",    "--server", server->host(), "--port", std::to_string(server->port()),
      "--progress", "never"};
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--pipeline", "-1"}, "--pipeline \"-1\" is out of range: use 1 to 100000"},
      {{"--requests", "18446744073709551616"},
       "--requests \"18446744073709551616\" is out of range: use 1 to 1000000000000"},
      {{"--threads", "0"}, "--threads \"0\" is out of range: use 1 to 1024"},
      {{"-c", "100001"}, "--clients \"100001\" is out of range: use 1 to 100000"},
      {{"--data-size", "67108865"}, "--data-size \"67108865\" is out of range: use 1 to 67108864"},
      {{"--key-maximum", "0"}, "--key-maximum \"0\" is out of range"},
      {{"--key-minimum", "-1"}, "--key-minimum \"-1\" is out of range"},
      {{"--test-time", "25h"}, "--test-time \"25h\" is out of range: use 1s to 24h"},
      {{"--warmup-time", "-5s"}, "--warmup-time \"-5s\" is not a duration"},
      {{"--rate", "0"}, "--rate \"0\" is out of range"},
      {{"--port", "65536"}, "--port \"65536\" is out of range: use 1 to 65535"},
      {{"--requests", "alkeys"}, "--requests \"alkeys\" is not a count"},
  };
  for (const auto& [flags, message] : cases) {
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), flags.begin(), flags.end());
    const CliResult r = dfb.Run(argv, std::chrono::seconds(10));
    EXPECT_EQ(r.code, 2) << flags.front() << " " << flags.back() << ": " << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  EXPECT_EQ(server->Client().Command({"DBSIZE"})->integer, 0);
  // The edges themselves are taken: allkeys, and a short load at the smallest of each.
  const std::vector<std::string> edges = {
      "--threads",     "1", "-c",          "1", "--pipeline",    "1",
      "--requests",    "1", "--data-size", "1", "--key-minimum", "0",
      "--key-maximum", "1"};
  std::vector<std::string> argv = base;
  argv.insert(argv.end(), edges.begin(), edges.end());
  const CliResult r = dfb.Run(argv, std::chrono::seconds(30));
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
}  // namespace dfbench::testing
