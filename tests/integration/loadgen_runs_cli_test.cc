// memtier's -x/--run-count and --print-all-runs through the binary against a real redis-server:
// each run announced on stderr, the best, worst and averaged runs (and with --print-all-runs
// every run) in the table and the JSON under memtier's names, the server's counts summed.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "core/files.h"
#include "core/subprocess.h"
#include "loadgen_run.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"
#include "support/wait_until.h"

// Its own namespace: the test binary compiles its files as one (unity build).
namespace dfbench::runs_cli {
namespace {

// In the file's order: the sections' order is memtier's.
using json = nlohmann::ordered_json;
using testing::Capture;
using testing::ReadJsonInOrder;
using testing::RunLoadgen;
using testing::ScopedTempDir;
using testing::TestServer;

size_t Occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The results sections' titles, in the JSON's order.
std::vector<std::string> Sections(const json& j) {
  std::vector<std::string> titles;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() != "configuration" && it.key() != "run information" && it.key() != "dfbench") {
      titles.push_back(it.key());
    }
  }
  return titles;
}

const std::vector<std::string> kThreeRuns = {"BEST RUN RESULTS", "WORST RUN RESULTS",
                                             "AGGREGATED AVERAGE RESULTS (3 runs)"};

TEST(LoadgenRuns, RunCountReportsTheBestTheWorstAndTheAverage) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-runs");
  const auto json_path = dir / "runs.json";
  const auto out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "1", "-c", "2", "-n",
                               "100", "-x", "3", "--json-out-file", json_path.string()});
  ASSERT_EQ(out.status.code, 0) << out.err;
  // Each run on its own connections, announced as memtier does; where the results go, once.
  EXPECT_EQ(Occurrences(out.err, "Writing results to stdout\n"), 1u) << out.err;
  for (const char* run : {"[RUN #1] Preparing", "[RUN #2] Preparing", "[RUN #3] Launching"}) {
    EXPECT_EQ(Occurrences(out.err, run), 1u) << run << "\n" << out.err;
  }
  EXPECT_EQ(Occurrences(out.out, "ALL STATS"), 0u) << out.out;
  const size_t best = out.out.find("\n\nBEST RUN RESULTS\n===");
  const size_t worst = out.out.find("\n\nWORST RUN RESULTS\n===");
  const size_t avg = out.out.find("\n\nAGGREGATED AVERAGE RESULTS (3 runs)\n===");
  ASSERT_NE(best, std::string::npos) << out.out;
  EXPECT_LT(best, worst) << out.out;
  EXPECT_LT(worst, avg) << out.out;
  EXPECT_EQ(avg, out.out.rfind("\n\nAGGREGATED")) << out.out;

  const json j = ReadJsonInOrder(json_path);
  EXPECT_EQ(Sections(j), kThreeRuns);
  EXPECT_EQ(j["configuration"]["run_count"], 3);
  const json& average = j["AGGREGATED AVERAGE RESULTS (3 runs)"];
  // The average's counts are the three runs' (memtier sums them), as the server saw them.
  EXPECT_EQ(average["Totals"]["Count"], 600);
  EXPECT_EQ(average["Sets"]["Count"], server->Calls("set"));
  EXPECT_EQ(average["Gets"]["Count"], server->Calls("get"));
  EXPECT_EQ(j["BEST RUN RESULTS"]["Totals"]["Count"], 200);
  EXPECT_GE(j["BEST RUN RESULTS"]["Totals"]["Ops/sec"].get<double>(),
            j["WORST RUN RESULTS"]["Totals"]["Ops/sec"].get<double>());
  EXPECT_EQ(average["Runtime"]["Interrupted"], "false");
  EXPECT_EQ(j["dfbench"]["runs"], 3);
}

TEST(LoadgenRuns, PrintAllRunsAddsEachRunAndEachRunHasItsHistogramFiles) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-runs");
  const auto json_path = dir / "all.json";
  const auto out = RunLoadgen({"-p", std::to_string(server->port()), "-t", "1", "-c", "1", "-n",
                               "50", "-x", "3", "--print-all-runs", "--json-out-file",
                               json_path.string(), "--hdr-file-prefix", (dir / "h").string()});
  ASSERT_EQ(out.status.code, 0) << out.err;
  std::vector<std::string> expected = {"RUN #1 RESULTS", "RUN #2 RESULTS", "RUN #3 RESULTS"};
  expected.insert(expected.end(), kThreeRuns.begin(), kThreeRuns.end());
  const json j = ReadJsonInOrder(json_path);
  EXPECT_EQ(Sections(j), expected);
  for (int run = 1; run <= 3; ++run) {
    const std::string title = "RUN #" + std::to_string(run) + " RESULTS";
    EXPECT_EQ(j[title]["Totals"]["Count"], 50) << title;
    EXPECT_EQ(Occurrences(out.out, "\n\n" + title + "\n===="), 1u) << out.out;
    EXPECT_TRUE(std::filesystem::exists(dir / ("h_FULL_RUN_" + std::to_string(run) + ".hgrm")));
  }
  EXPECT_EQ(server->Calls("set") + server->Calls("get"), 150u);
}

// Ctrl+C in the first of three runs ends the series: no second run, the sections of what ran.
TEST(LoadgenRuns, CtrlCEndsTheSeries) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-runs");
  const auto json_path = dir / "interrupted.json";
  const auto stderr_path = dir / "interrupted.err";
  core::SpawnOptions spawn;
  spawn.argv = {LOADGEN_BINARY,
                "loadgen",
                "-p",
                std::to_string(server->port()),
                "-t",
                "1",
                "-c",
                "2",
                "--test-time",
                "30",
                "-x",
                "3",
                "--json-out-file",
                json_path.string()};
  spawn.stdout_path = (dir / "interrupted.out").string();
  spawn.stderr_path = stderr_path.string();
  auto child = core::Spawn(spawn);
  ASSERT_TRUE(child) << child.error().message;
  ASSERT_TRUE(testing::WaitUntil([&] { return server->Calls("set") + server->Calls("get") >= 100; },
                                 std::chrono::seconds(30), "100 SETs and GETs"));
  child->Signal(SIGINT);
  auto status = child->WaitFor(std::chrono::seconds(10));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->code, 0);
  const std::string err = core::ReadFile(stderr_path).value_or("");
  EXPECT_NE(err.find("[RUN #1] Interrupted by user (Ctrl+C)"), std::string::npos) << err;
  EXPECT_EQ(err.find("[RUN #2]"), std::string::npos) << err;
  const json j = ReadJsonInOrder(json_path);
  EXPECT_EQ(Sections(j), (std::vector<std::string>{"BEST RUN RESULTS", "WORST RUN RESULTS",
                                                   "AGGREGATED AVERAGE RESULTS (1 runs)"}));
  EXPECT_EQ(j["AGGREGATED AVERAGE RESULTS (1 runs)"]["Runtime"]["Interrupted"], "true");
  EXPECT_EQ(j["dfbench"]["interrupted"], true);
}

// Every key path of memtier's sections (its latency distribution and idle WAIT rows aside,
// which loadgen does not write) is in ours, for the same command line.
void CollectPaths(const json& doc, const std::string& at, std::set<std::string>* paths) {
  if (!doc.is_object()) {
    paths->insert(at);
    return;
  }
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (it.key() == "Time-Serie") {
      paths->insert(at + "/Time-Serie");  // keyed by second: how many differs from run to run
    } else {
      CollectPaths(*it, at + "/" + it.key(), paths);
    }
  }
}

TEST(LoadgenRuns, SectionsHaveMemtiersKeyPaths) {
  if (const std::string why = testing::MemtierSkipReason(); !why.empty()) GTEST_SKIP() << why;
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  const ScopedTempDir dir("loadgen-runs");
  const std::vector<std::string> args = {"-p",
                                         std::to_string(server->port()),
                                         "-t",
                                         "1",
                                         "-c",
                                         "1",
                                         "-n",
                                         "20",
                                         "-x",
                                         "3",
                                         "--print-all-runs"};
  std::vector<std::string> theirs = {testing::MemtierBinary().string()};
  theirs.insert(theirs.end(), args.begin(), args.end());
  theirs.insert(theirs.end(), {"--json-out-file", (dir / "memtier.json").string()});
  ASSERT_EQ(Capture(theirs).status.code, 0);
  std::vector<std::string> ours = args;
  ours.insert(ours.end(), {"--json-out-file", (dir / "ours.json").string()});
  ASSERT_EQ(RunLoadgen(ours).status.code, 0);
  const json m = ReadJsonInOrder(dir / "memtier.json");
  const json o = ReadJsonInOrder(dir / "ours.json");
  ASSERT_EQ(Sections(o), Sections(m));
  for (const std::string& title : Sections(m)) {
    std::set<std::string> their_paths, our_paths;
    for (const char* part : {"Runtime", "Sets", "Gets", "Totals"}) {
      CollectPaths(m[title][part], part, &their_paths);
      CollectPaths(o[title][part], part, &our_paths);
    }
    ASSERT_FALSE(their_paths.empty()) << title;
    for (const std::string& path : their_paths) {
      EXPECT_TRUE(our_paths.contains(path)) << title << ": " << path;
    }
  }
}

}  // namespace
}  // namespace dfbench::runs_cli
