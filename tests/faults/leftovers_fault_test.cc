// What a killed run leaves, and what a setup keeps: `run-memory` killed with SIGKILL while its
// engine's BGSAVE child writes into --snapshot-dir (the child outlives the engine, which dies with
// dfbench), then the next command or destroy; and work/ after runs that end in every way. Real
// redis-server on a local setup; the BGSAVE is slowed by redis's own `rdb-key-save-delay` so the
// kill lands inside it. A redis BGSAVE child reports to its parent every 1,024 keys and exits,
// leaving its temp-<pid>.rdb, when that parent is gone: with 20 ms a key, that is 20 s after the
// BGSAVE began, long after the next command stops it; with 5 ms, 5 s, so it ends on its own.
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

// 2,000 keys of 100 B (--test-time and --snapshot-delay are each use's).
const std::vector<std::string> kSlowSnapshotRun = {
    "run-memory", "--engines",         "redis", "--keys",
    "2000",       "--value-size",      "100",   "--update-rate",
    "200",        "--memtier-threads", "1",     "--memtier-clients",
    "1",          "--cooldown",        "0s"};

// How long the slowed BGSAVE takes a key.
constexpr int kOutlivesTheNextCommand = 20'000;  // microseconds
constexpr int kEndsOnItsOwn = 5'000;

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

// current_save_keys_processed of the redis on `port` (-1 when it cannot be read).
long KeysSaved(int port) {
  auto client = protocol::BlockingClient::Connect("127.0.0.1", port, std::chrono::seconds(2));
  if (!client) return -1;
  auto info = client->Command({"INFO", "persistence"});
  const std::string field = "current_save_keys_processed:";
  const size_t at = info ? info->str.find(field) : std::string::npos;
  return at == std::string::npos ? -1 : std::atol(info->str.c_str() + at + field.size());
}

// What the killed run left: its engine (killed with dfbench) and the engine's BGSAVE child.
struct KilledRun {
  int engine = 0;
  int bgsave = 0;
};

class LeftoversTest : public ::testing::Test {
 protected:
  void TearDown() override {
    // A failing test must not leave the slowed child writing for 40 s.
    if (killed_.bgsave > 0 && !core::ProcessGone(killed_.bgsave)) kill(killed_.bgsave, SIGKILL);
  }

  // Sets up `id`, starts kSlowSnapshotRun writing into snapshots_, slows its engine's BGSAVE
  // (`key_delay_us` a key), and kills dfbench with SIGKILL once the BGSAVE child runs.
  void KillDuringBgsave(const std::string& id, int key_delay_us) {
    ASSERT_EQ(
        dfb_.Run({"setup", "--id", id, "--engines", "redis", "--provider", "local", "--yes"}).code,
        0);
    fs::create_directories(snapshots_);
    core::Process run =
        dfb_.Start(Concat(kSlowSnapshotRun, {"--id", id, "--test-time", "20s", "--snapshot-delay",
                                             "3s", "--snapshot-dir", snapshots_.string()}));
    // The BGSAVE comes 3 s into the load: time enough to slow it first, even on a busy machine.
    bool slowed = false;
    bool began_before = false;
    int port = 0;
    WaitUntil(
        [&] {
          if (!run.running()) return true;  // too late: the assertions below say so
          if (killed_.engine == 0) {
            const auto engines = ChildrenNamed(run.pid(), "redis-server");
            if (!engines.empty()) killed_.engine = engines.front();
          }
          if (killed_.engine != 0 && !slowed) {
            if ((port = RedisPort(killed_.engine)) != 0) {
              if (auto client = protocol::BlockingClient::Connect("127.0.0.1", port,
                                                                  std::chrono::seconds(2))) {
                auto set = client->Command(
                    {"CONFIG", "SET", "rdb-key-save-delay", std::to_string(key_delay_us)});
                slowed = set.has_value() && set->str == "OK";
                // A child forked before the setting would save at full speed.
                auto info = client->Command({"INFO", "persistence"});
                began_before =
                    !info || info->str.find("rdb_bgsave_in_progress:1") != std::string::npos;
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
    ASSERT_FALSE(began_before) << "the BGSAVE began before it was slowed\n"
                               << dfb_.BackgroundErrTail();
    ASSERT_NE(killed_.bgsave, 0) << "no BGSAVE child came\n" << dfb_.BackgroundErrTail();
    // Once the engine has the child's first report (the next comes 1,024 keys later; one to a
    // dead parent ends the child), the kill: no cleanup of dfbench's runs.
    ASSERT_TRUE(WaitUntil([&] { return KeysSaved(port) > 0; }, std::chrono::seconds(10),
                          "the BGSAVE child's first report of its progress"));
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
  ASSERT_NO_FATAL_FAILURE(KillDuringBgsave("next", kOutlivesTheNextCommand));
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
  ASSERT_NO_FATAL_FAILURE(KillDuringBgsave("gone", kOutlivesTheNextCommand));
  const auto r = dfb_.Run({"destroy", "--id", "gone"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("died while benchmarking"), std::string::npos) << r.err;
  ExpectNothingLeft();
  EXPECT_EQ(dfb_.State("gone")["status"], "destroyed");
  EXPECT_FALSE(fs::exists(dfb_.SetupDir("gone") / "work"));
}

// The killed engine's BGSAVE child ends on its own before the next command, its temporary file
// left: the next command removes that file and says so.
TEST_F(LeftoversTest, NextCommandRemovesTheFileOfASnapshotChildThatEndedOnItsOwn) {
  ASSERT_NO_FATAL_FAILURE(KillDuringBgsave("ended", kEndsOnItsOwn));
  ASSERT_TRUE(WaitUntil([&] { return core::ProcessGone(killed_.bgsave); }, std::chrono::seconds(30),
                        "the BGSAVE child to end on its own"));
  const fs::path temp = snapshots_ / ("temp-" + std::to_string(killed_.bgsave) + ".rdb");
  ASSERT_TRUE(fs::exists(temp)) << ::testing::PrintToString(Entries(snapshots_));
  const auto r = dfb_.Run(Concat(kTinyRun, {"--id", "ended"}));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("removed "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(temp.string()), std::string::npos) << r.err;
  ExpectNothingLeft();
  dfb_.Run({"destroy", "--id", "ended"});
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
  auto r =
      dfb_.Run(Concat(kSlowSnapshotRun, {"--id", "w", "--test-time", "2s", "--snapshot-delay", "1s",
                                         "--snapshot-dir", (not_a_dir / "sub").string()}));
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
