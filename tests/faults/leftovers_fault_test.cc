// What a killed run leaves, and what a setup keeps: `run-memory` killed with SIGKILL while its
// engine's BGSAVE child writes into --snapshot-dir (the child outlives the engine, which dies with
// dfbench), then the next command or destroy; and work/ after runs that end in every way. Real
// redis-server on a local setup; the BGSAVE is slowed by redis's own `rdb-key-save-delay` so the
// kill lands inside it.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <thread>

#include "core/subprocess.h"
#include "core/units.h"
#include "dfbench_runner.h"
#include "protocol/blocking_client.h"
#include "support/processes.h"
#include "support/test_data.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// 2,000 keys of 100 B, a BGSAVE 1 s into the updates (--test-time is each use's).
const std::vector<std::string> kSlowSnapshotRun = {
    "run-memory", "--engines",         "redis", "--keys",        "2000", "--value-size",
    "100",        "--snapshot-delay",  "1s",    "--update-rate", "200",  "--memtier-threads",
    "1",          "--memtier-clients", "1",     "--cooldown",    "0s"};

// A tiny closed-loop run: one connection, 100 requests, no warmup.
const std::vector<std::string> kTinyRun = {
    "run", "--engines",  "redis", "--memtier-requests", "100", "--warmup-requests", "0", "--trials",
    "1",   "--cooldown", "0s",    "--memtier-threads",  "1",   "--memtier-clients", "1"};

std::vector<std::string> Entries(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename());
  return names;
}

// Regular files anywhere under `dir`.
std::vector<std::string> FilesUnder(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_regular_file()) files.push_back(it->path().string());
  }
  return files;
}

// What the killed run left: its engine (killed with dfbench) and the engine's BGSAVE child.
struct KilledRun {
  int engine = 0;
  int bgsave = 0;
};

class LeftoversTest : public ::testing::Test {
 protected:
  void TearDown() override {
    // A failing test must not leave the slowed child writing for 20 s.
    if (killed_.bgsave > 0 && !core::ProcessGone(killed_.bgsave)) kill(killed_.bgsave, SIGKILL);
  }

  // Sets up `id`, starts kSlowSnapshotRun writing into snapshots_, slows its engine's BGSAVE,
  // and kills dfbench with SIGKILL once the BGSAVE child runs.
  void KillDuringBgsave(const std::string& id) {
    ASSERT_EQ(
        dfb_.Run({"setup", "--id", id, "--engines", "redis", "--provider", "local", "--yes"}).code,
        0);
    fs::create_directories(snapshots_);
    core::Process run =
        dfb_.Start(Concat(kSlowSnapshotRun, {"--id", id, "--test-time", "20s", "--snapshot-dir",
                                             snapshots_.string()}));
    bool slowed = false;
    WaitUntil(
        [&] {
          if (!run.running()) return true;  // too late: the assertions below say so
          if (killed_.engine == 0) {
            const auto engines = ChildrenNamed(run.pid(), "redis-server");
            if (!engines.empty()) killed_.engine = engines.front();
          }
          if (killed_.engine != 0 && !slowed) {
            if (const int port = RedisPort(killed_.engine)) {
              // 10 ms a key: the 2,000 keys take 20 s to save.
              if (auto client = protocol::BlockingClient::Connect("127.0.0.1", port,
                                                                  std::chrono::seconds(2))) {
                auto set = client->Command({"CONFIG", "SET", "rdb-key-save-delay", "10000"});
                slowed = set.has_value() && set->str == "OK";
              }
            }
          }
          if (slowed) {
            // It renames its command line only ("redis-rdb-bgsave"); its name stays the engine's.
            const auto children = ChildrenNamed(killed_.engine, "redis-server");
            if (!children.empty()) killed_.bgsave = children.front();
          }
          return killed_.bgsave != 0;
        },
        std::chrono::seconds(20), "the engine's BGSAVE child");
    ASSERT_TRUE(slowed) << "the engine's BGSAVE could not be slowed\n" << dfb_.BackgroundErrTail();
    ASSERT_NE(killed_.bgsave, 0) << "no BGSAVE child came\n" << dfb_.BackgroundErrTail();
    // Once the child has begun its file, the kill: no cleanup of dfbench's runs.
    ASSERT_TRUE(WaitUntil([&] { return !Entries(snapshots_).empty(); }, std::chrono::seconds(10),
                          "the BGSAVE child's file in " + snapshots_.string()));
    run.Signal(SIGKILL);
    ASSERT_TRUE(run.WaitFor(std::chrono::seconds(10)));
    // What the kill leaves on its own: the engine dies with dfbench, its child does not.
    ASSERT_TRUE(WaitUntil([&] { return core::ProcessGone(killed_.engine); },
                          std::chrono::seconds(5), "the engine to die with dfbench"));
    ASSERT_FALSE(core::ProcessGone(killed_.bgsave));
    ASSERT_FALSE(Entries(snapshots_).empty());
    EXPECT_EQ(dfb_.State(id)["status"], "benchmarking");
  }

  // Nothing of the killed run is left: no process, nothing in the snapshot directory.
  void ExpectNothingLeft() {
    EXPECT_TRUE(core::ProcessGone(killed_.bgsave)) << "BGSAVE child " << killed_.bgsave;
    EXPECT_TRUE(core::ProcessGone(killed_.engine)) << "engine " << killed_.engine;
    EXPECT_TRUE(Entries(snapshots_).empty()) << snapshots_;
    EXPECT_TRUE(ProcessesMatching(dfb_.home().string()).empty());
  }

  DfbenchRunner dfb_{"leftovers"};
  fs::path snapshots_ = dfb_.home() / "snapshots";
  KilledRun killed_;
};

TEST_F(LeftoversTest, NextCommandStopsTheKilledRunsSnapshotChildAndRemovesItsFiles) {
  ASSERT_NO_FATAL_FAILURE(KillDuringBgsave("next"));
  const auto r = dfb_.Run(Concat(kTinyRun, {"--id", "next"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("died while benchmarking"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stopped process(es) " + std::to_string(killed_.bgsave)), std::string::npos)
      << r.err;
  ExpectNothingLeft();
  const json state = dfb_.State("next");
  EXPECT_EQ(state["status"], "ready");
  ASSERT_EQ(state["benchmarks"].size(), 2u) << state.dump();
  EXPECT_EQ(state["benchmarks"][0]["status"], "interrupted");
  EXPECT_EQ(state["benchmarks"][1]["status"], "completed");
  EXPECT_TRUE(FilesUnder(dfb_.SetupDir("next") / "work").empty());
  dfb_.Run({"destroy", "--id", "next"});
}

TEST_F(LeftoversTest, DestroyStopsTheKilledRunsSnapshotChildAndRemovesItsFiles) {
  ASSERT_NO_FATAL_FAILURE(KillDuringBgsave("gone"));
  const auto r = dfb_.Run({"destroy", "--id", "gone"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("died while benchmarking"), std::string::npos) << r.err;
  ExpectNothingLeft();
  EXPECT_EQ(dfb_.State("gone")["status"], "destroyed");
  EXPECT_FALSE(fs::exists(dfb_.SetupDir("gone") / "work"));
}

// Completed, failed and interrupted runs: work/ keeps no file, each result's raw files are in its
// run directory, and info tells how much the setup holds.
TEST_F(LeftoversTest, WorkKeepsNothingAfterRunsAndInfoShowsTheSize) {
  ASSERT_EQ(
      dfb_.Run({"setup", "--id", "w", "--engines", "redis", "--provider", "local", "--yes"}).code,
      0);
  for (int i = 0; i < 2; ++i) {
    const auto r = dfb_.Run(Concat(kTinyRun, {"--id", "w"}));
    ASSERT_EQ(r.code, 0) << r.err;
  }
  // A failed run: the snapshot cannot be written (a file stands where the directory should be).
  const fs::path not_a_dir = dfb_.home() / "not-a-dir";
  std::ofstream(not_a_dir) << "x";
  auto r = dfb_.Run(Concat(kSlowSnapshotRun, {"--id", "w", "--test-time", "2s", "--snapshot-dir",
                                              (not_a_dir / "sub").string()}));
  EXPECT_EQ(r.code, 1) << r.err;
  // An interrupted one.
  core::Process run = dfb_.Start(
      Concat(kSlowSnapshotRun, {"--id", "w", "--test-time", "20s", "--snapshot", "none"}));
  ASSERT_TRUE(dfb_.WaitForBackgroundErr("trial 1/1", std::chrono::seconds(20)))
      << dfb_.BackgroundErrTail();
  ASSERT_NO_FATAL_FAILURE(dfb_.Interrupt(&run));

  EXPECT_TRUE(FilesUnder(dfb_.SetupDir("w") / "work").empty());
  const json state = dfb_.State("w");
  ASSERT_EQ(state["benchmarks"].size(), 4u) << state.dump();
  for (const auto& b : state["benchmarks"]) {
    const fs::path path = dfb_.SetupDir("w") / b["path"].get<std::string>();
    const fs::path dir = path.parent_path();
    const json results = ReadJsonIfComplete(path);
    ASSERT_TRUE(results.is_object()) << dir;
    for (const auto& engine : results["engines"]) {
      for (const auto& trial : engine.value("trials", json::array())) {
        if (!trial.contains("raw_file")) continue;
        EXPECT_TRUE(fs::exists(dir / trial["raw_file"].get<std::string>())) << trial.dump();
      }
    }
  }

  r = dfb_.Run({"info", "--id", "w"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string line =
      "  Disk:      " + core::FormatBytes(core::TreeBytes(dfb_.SetupDir("w"))) +
      " in all, 0 B of it in work/\n";
  EXPECT_NE(r.out.find(line), std::string::npos) << line << r.out;
  dfb_.Run({"destroy", "--id", "w"});
  EXPECT_TRUE(ProcessesMatching(dfb_.home().string()).empty());
}

}  // namespace
}  // namespace dfbench::testing
