// `dfbench run-memory` against real redis-server, memcached and Dragonfly: populate, idle memory,
// update traffic with a BGSAVE, the snapshot's failure in the row, Ctrl+C. Assertions are on
// counts and statuses, never on timings.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <optional>

#include "core/files.h"
#include "dfbench_runner.h"
#include "protocol/blocking_client.h"
#include "support/scoped_change.h"
#include "support/test_data.h"
#include "support/testbed_engines.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Small and short: 20,000 keys of 1 KB, 4 s of updates with the BGSAVE after 1 s.
const std::vector<std::string> kSmallMemoryRun = {"--keys",
                                                  "20000",
                                                  "--value-size",
                                                  "1024",
                                                  "--test-time",
                                                  "4s",
                                                  "--snapshot-delay",
                                                  "1s",
                                                  "--update-rate",
                                                  "2000",
                                                  "--memtier-threads",
                                                  "1",
                                                  "--memtier-clients",
                                                  "2",
                                                  "--cooldown",
                                                  "0s"};

// `dfbench run-memory` of setup `id`'s `engines` with `flags`, small (kSmallMemoryRun).
std::vector<std::string> SmallMemoryRun(const std::string& id, const std::string& engines,
                                        const std::vector<std::string>& flags) {
  return Concat(Concat({"run-memory", "--id", id, "--engines", engines}, flags), kSmallMemoryRun);
}

json ResultsOf(const DfbenchRunner& dfb, const std::string& id) {
  const json record = dfb.State(id)["benchmarks"].back();
  EXPECT_EQ(record["kind"], "memory");
  return json::parse(*core::ReadFile(dfb.SetupDir(id) / record["path"].get<std::string>()));
}

// Files under `dir` whose name starts with `prefix` (left-over snapshots).
std::vector<std::string> FilesStartingWith(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> found;
  if (!fs::exists(dir)) return found;
  for (const auto& f : fs::recursive_directory_iterator(dir)) {
    if (f.path().filename().string().rfind(prefix, 0) == 0) found.push_back(f.path().string());
  }
  return found;
}

// The engine's one trial of kSmallMemoryRun: its 20,000 keys filled by `populate`, each holding
// more than `value_bytes` (its 1 KB value as the engine stores it), by both figures.
void ExpectOneFilledTrial(const json& engine, const std::string& populate,
                          double value_bytes = 1024) {
  ASSERT_EQ(engine["trials"].size(), 1u);
  const json& t = engine["trials"][0];
  EXPECT_EQ(t["populate"], populate);
  EXPECT_EQ(t["keys"], 20000);
  EXPECT_GT(t["bytes_per_key"].get<double>(), value_bytes);
  EXPECT_GT(t["info_bytes_per_key"].get<double>(), value_bytes);
}

TEST(RunMemory, RedisAndMemcachedIdlePeakAndSnapshot) {
  DfbenchRunner dfb("memory");
  ASSERT_EQ(dfb.Run({"setup", "--id", "m", "--engines", "redis,memcached"}).code, 0);
  auto r = dfb.Run(SmallMemoryRun("m", "redis,memcached", {"--output", "json"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const json out = json::parse(r.out);
  const json results = ResultsOf(dfb, "m");
  EXPECT_EQ(out, results);
  EXPECT_EQ(results["scenario"], "memory");
  EXPECT_EQ(results["status"], "completed");
  EXPECT_EQ(results["settings"]["keys"], 20000);
  ASSERT_EQ(results["engines"].size(), 2u);

  const json& redis = results["engines"][0];
  EXPECT_EQ(redis["engine"], "redis");
  EXPECT_EQ(redis["engine_args"], json({"--enable-debug-command", "yes"}));
  ASSERT_NO_FATAL_FAILURE(ExpectOneFilledTrial(redis, "debug_populate"));
  const json& rt = redis["trials"][0];
  EXPECT_EQ(rt["snapshot_status"], "ok") << rt["snapshot_error"];
  EXPECT_GT(rt["snapshot_duration_ms"].get<double>(), 0);
  EXPECT_GE(rt["snapshot_end_sec"].get<double>(), rt["snapshot_start_sec"].get<double>());
  EXPECT_GE(rt["peak_pss_bytes"].get<uint64_t>(), rt["idle_pss_bytes"].get<uint64_t>());
  EXPECT_GT(rt["memory"].size(), 10u);
  EXPECT_FALSE(rt["load"].empty());
  EXPECT_NE(rt["load_args"].get<std::string>().find("--key-prefix key:"), std::string::npos);
  // The updates' totals, read from the generator's report: all answered, so the trial passed.
  EXPECT_GT(rt["load_ops"].get<uint64_t>(), 0u);
  EXPECT_EQ(rt["load_errors"], 0);
  EXPECT_EQ(rt["failed"], "");
  EXPECT_EQ(results["settings"]["max_error_pct"], 1);
  // The forked BGSAVE child is read with its parent while it lives.
  int most_processes = 0;
  for (const json& s : rt["memory"])
    most_processes = std::max(most_processes, s["processes"].get<int>());
  EXPECT_GE(most_processes, 2);

  const json& mc = results["engines"][1];
  EXPECT_EQ(mc["engine"], "memcached");
  EXPECT_TRUE(mc["engine_args"].empty());
  ASSERT_NO_FATAL_FAILURE(ExpectOneFilledTrial(mc, "set"));
  EXPECT_EQ(mc["trials"][0]["snapshot_status"], "skipped");

  const fs::path dir = dfb.SetupDir("m") / "memory" / results["run_id"].get<std::string>();
  EXPECT_EQ(core::ReadFile(dir / "results.csv")->rfind("engine,version,trial,populate,keys", 0),
            0u);
  EXPECT_TRUE(fs::exists(dir / "raw" / "redis-t1-load.json"));
  EXPECT_TRUE(fs::exists(dir / "raw" / "memcached-t1-populate.json"));
  EXPECT_TRUE(FilesStartingWith(dfb.SetupDir("m"), "dfbench-").empty());
  EXPECT_TRUE(FilesStartingWith(dfb.SetupDir("m") / "work" / "snapshots", "").empty());
  EXPECT_EQ(dfb.State("m")["status"], "ready");

  // compare: the file against itself, against a copy whose redis peak grew by half (the
  // reference's exit 1), against a file of another shape (exit 2).
  const std::string file = (dir / "results.json").string();
  r = dfb.Run({"compare", file, file});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("peak memory (bytes)"), std::string::npos) << r.out;
  json worse = results;
  worse["engines"][0]["peak_bytes"]["median"] = rt["peak_pss_bytes"].get<double>() * 1.5;
  const fs::path worse_file = dfb.home() / "worse.json";
  ASSERT_TRUE(core::WriteFileAtomic(worse_file, worse.dump()));
  r = dfb.Run({"compare", file, worse_file.string(), "--format", "json"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const json verdict = json::parse(r.out);
  ASSERT_EQ(verdict["regressions"].size(), 1u) << r.out;
  EXPECT_EQ(verdict["regressions"][0]["engine"], "redis");
  EXPECT_EQ(verdict["regressions"][0]["metric"], "peak_bytes");
  r = dfb.Run({"compare", file, FixturePath("results/reference_run.json").string()});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("cannot compare memory with run"), std::string::npos) << r.err;

  r = dfb.Run(SmallMemoryRun("m", "redis", {"--snapshot", "none"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("bytes/key"), std::string::npos) << r.out;
  EXPECT_EQ(ResultsOf(dfb, "m")["engines"][0]["trials"][0]["snapshot_status"], "skipped");
}

// Dragonfly snapshots in-process (no fork) into several files (<name>-summary.dfs and one per
// shard), reports its save in INFO persistence's `saving`, and fills itself with DEBUG POPULATE
// without a switch: the whole run against the real build, in dfbench's own snapshot directory
// and then in one given with --snapshot-dir, both left without a snapshot file.
TEST(RunMemory, DragonflyPopulateSnapshotUnderUpdatesAndCleanup) {
  if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
  DfbenchRunner dfb("memory-dfly");
  auto r = dfb.Run({"setup", "--id", "df", "--engines", "dragonfly", "--dragonfly_binary",
                    DragonflyBinary().string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const fs::path given = dfb.home() / "snapshots-here";
  fs::create_directories(given);
  for (const std::vector<std::string>& where :
       {std::vector<std::string>{}, std::vector<std::string>{"--snapshot-dir", given.string()}}) {
    r = dfb.Run(SmallMemoryRun("df", "dragonfly", Concat({"--output", "json"}, where)));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("[dragonfly] BGSAVE"), std::string::npos) << r.err;
    const json results = ResultsOf(dfb, "df");
    EXPECT_EQ(results["status"], "completed");
    ASSERT_EQ(results["engines"].size(), 1u);
    const json& df = results["engines"][0];
    EXPECT_EQ(df["engine"], "dragonfly");
    EXPECT_EQ(df["version"].get<std::string>().rfind("dragonfly v", 0), 0u) << df["version"];
    EXPECT_TRUE(df["engine_args"].empty());
    // Its DEBUG POPULATE values are ASCII ('x' repeated), which Dragonfly packs 7 bits a byte.
    ASSERT_NO_FATAL_FAILURE(ExpectOneFilledTrial(df, "debug_populate", 1024 * 7.0 / 8));
    const json& t = df["trials"][0];
    EXPECT_EQ(t["snapshot_status"], "ok") << t["snapshot_error"];
    EXPECT_GT(t["snapshot_duration_ms"].get<double>(), 0);
    // The BGSAVE ran under the update traffic, and the traffic was served.
    EXPECT_GT(t["snapshot_start_sec"].get<double>(), t["load_start_sec"].get<double>());
    EXPECT_GE(t["snapshot_end_sec"].get<double>(), t["snapshot_start_sec"].get<double>());
    EXPECT_FALSE(t["load"].empty());
    EXPECT_GE(t["peak_pss_bytes"].get<uint64_t>(), t["idle_pss_bytes"].get<uint64_t>());
    EXPECT_TRUE(FilesStartingWith(dfb.SetupDir("df"), "dfbench-").empty());
    EXPECT_TRUE(FilesStartingWith(dfb.SetupDir("df") / "work" / "snapshots", "").empty());
    EXPECT_TRUE(FilesStartingWith(given, "").empty());
  }
  EXPECT_EQ(dfb.State("df")["status"], "ready");
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty())
      << "an engine or load generator was left running";
}

// The port of the engine dfbench started on this machine, read from the name of its log
// (<name>-<port>.log in the setup's work directory); 0 when none came within 30 s.
int EnginePortFromItsLog(const fs::path& work_dir, const std::string& engine) {
  int port = 0;
  EXPECT_TRUE(WaitUntil(
      [&] {
        std::error_code ec;
        for (const auto& f : fs::directory_iterator(work_dir, ec)) {
          const std::string name = f.path().filename().string();
          if (name.rfind(engine + "-", 0) == 0 && name.ends_with(".log")) {
            port = std::atoi(name.c_str() + engine.size() + 1);
            return true;
          }
        }
        return false;
      },
      std::chrono::seconds(30), engine + "'s log in " + work_dir.string()));
  return port;
}

// A BGSAVE that outlasts --snapshot-timeout: redis-server's own rdb-key-save-delay, set on the
// engine dfbench started before its BGSAVE, makes the save child sleep 100 ms per key. The wait
// gives up at the timeout, naming the signal and what INFO persistence showed, and the run
// cleans up (no engine or save child left, no snapshot file).
TEST(RunMemory, StuckSnapshotEndsAtItsTimeoutSayingWhatInfoShowed) {
  DfbenchRunner dfb("memory-stuck");
  ASSERT_EQ(dfb.Run({"setup", "--id", "s", "--engines", "redis"}).code, 0);
  auto proc = dfb.Start(SmallMemoryRun("s", "redis", {"--snapshot-timeout", "2s"}));
  const int port = EnginePortFromItsLog(dfb.SetupDir("s") / "work", "redis");
  ASSERT_GT(port, 0) << dfb.BackgroundErrTail();
  // The log comes before the engine listens.
  std::optional<protocol::BlockingClient> client;
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto connected =
            protocol::BlockingClient::Connect("127.0.0.1", port, std::chrono::seconds(2));
        if (connected) client.emplace(std::move(*connected));
        return client.has_value();
      },
      std::chrono::seconds(30), "redis listening on port " + std::to_string(port)))
      << dfb.BackgroundErrTail();
  auto r = client->Command({"CONFIG", "SET", "rdb-key-save-delay", "100000"});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_FALSE(r->is_error()) << r->str;
  const auto status = proc.WaitFor(std::chrono::minutes(2));
  ASSERT_TRUE(status) << "still running " << dfb.BackgroundErrTail();
  EXPECT_EQ(status->code, 1) << dfb.BackgroundErrTail();
  const json results = ResultsOf(dfb, "s");
  EXPECT_EQ(results["status"], "failed");
  const std::string error = results["engines"][0]["error"];
  ExpectContainsAll(error, {"the snapshot did not end within 2s (the snapshot timeout)",
                            "waited for INFO persistence to show no save in progress",
                            "rdb_bgsave_in_progress:1"});
  EXPECT_TRUE(FilesStartingWith(dfb.SetupDir("s") / "work" / "snapshots", "").empty());
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty())
      << "an engine, its save child or the load generator was left running";
  EXPECT_EQ(dfb.State("s")["status"], "ready");
}

// `dir` made read-only to everyone until the change goes: a read-only tmpfs when we are root,
// whom permissions do not stop. Not made when neither works here.
ScopedChange MakeReadOnly(const fs::path& dir) {
  if (geteuid() == 0) return MountTmpfs(dir, "1m", MS_RDONLY);
  fs::create_directories(dir);
  return ScopedChange(chmod(dir.c_str(), 0555) == 0, [dir] { chmod(dir.c_str(), 0755); });
}

// run-memory of setup `id`'s `engines` with --snapshot-dir `dir`, which the engines cannot write
// to: the run exits 1, its first engine's snapshot failed with the file system's own error, and
// the setup is ready again. The run, for what else a test expects of it.
CliResult ExpectSnapshotRefused(const DfbenchRunner& dfb, const std::string& id,
                                const std::string& engines, const fs::path& dir) {
  auto r = dfb.Run(SmallMemoryRun(id, engines, {"--snapshot-dir", dir.string()}));
  EXPECT_EQ(r.code, 1) << r.err;
  const json results = ResultsOf(dfb, id);
  EXPECT_EQ(results["status"], "failed");
  const json& t = results["engines"][0]["trials"][0];
  EXPECT_EQ(t["snapshot_status"], "failed");
  const std::string error = t["snapshot_error"];
  EXPECT_TRUE(error.find("Read-only file system") != std::string::npos ||
              error.find("Permission denied") != std::string::npos)
      << error;
  EXPECT_EQ(dfb.State(id)["status"], "ready");
  return r;
}

TEST(RunMemory, ReadOnlySnapshotDirGivesTheEnginesErrorAndTheRunGoesOn) {
  DfbenchRunner dfb("memory-ro");
  const ScopedChange readonly = MakeReadOnly(dfb.home() / "readonly");
  if (!readonly.made()) GTEST_SKIP() << "cannot make a read-only directory here (no tmpfs mount)";
  ASSERT_EQ(dfb.Run({"setup", "--id", "ro", "--engines", "redis,memcached"}).code, 0);
  auto r = ExpectSnapshotRefused(dfb, "ro", "redis,memcached", dfb.home() / "readonly");
  EXPECT_NE(r.out.find("snapshot: "), std::string::npos) << r.out;
  // The next engine still ran.
  EXPECT_EQ(ResultsOf(dfb, "ro")["engines"][1]["trials"].size(), 1u);
}

// Dragonfly's failed save, read from its INFO persistence (last_failed_save after
// last_success_save, and last_error), not from its log.
TEST(RunMemory, ReadOnlySnapshotDirGivesDragonflysOwnError) {
  if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
  DfbenchRunner dfb("memory-ro-df");
  const ScopedChange readonly = MakeReadOnly(dfb.home() / "readonly");
  if (!readonly.made()) GTEST_SKIP() << "cannot make a read-only directory here (no tmpfs mount)";
  ASSERT_EQ(dfb.Run({"setup", "--id", "rodf", "--engines", "dragonfly", "--dragonfly_binary",
                     DragonflyBinary().string()})
                .code,
            0);
  ExpectSnapshotRefused(dfb, "rodf", "dragonfly", dfb.home() / "readonly");
}

TEST(RunMemory, SigintKeepsTheFinishedEngines) {
  DfbenchRunner dfb("memory-int");
  ASSERT_EQ(dfb.Run({"setup", "--id", "i", "--engines", "redis,memcached"}).code, 0);
  auto proc = dfb.Start({"run-memory", "--id", "i", "--engines", "redis,memcached", "--keys",
                         "20000", "--test-time", "3s", "--snapshot-delay", "1s", "--update-rate",
                         "1000", "--cooldown", "60s"});
  // Wait for redis's row, then interrupt during the cooldown before memcached.
  const fs::path run_dir = dfb.WaitForRunDir(
      "i", "memory", [](const fs::path& run) { return FirstEngineHas(run, "trials", 1); });
  ASSERT_FALSE(run_dir.empty());
  ASSERT_NO_FATAL_FAILURE(dfb.Interrupt(&proc));
  const json j = json::parse(*core::ReadFile(run_dir / "results.json"));
  EXPECT_EQ(j["status"], "interrupted");
  EXPECT_EQ(j["engines"][0]["trials"].size(), 1u);
  EXPECT_EQ(dfb.State("i")["status"], "ready");
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty())
      << "an engine or load generator was left running";
}

TEST(RunMemory, BadFlagsAreOneLineAndExitTwo) {
  DfbenchRunner dfb("memory-flags");
  ASSERT_EQ(dfb.Run({"setup", "--id", "f", "--engines", "redis"}).code, 0);
  auto r = dfb.Run({"run-memory", "--id", "f", "--engines", "redis", "--test-time", "5s",
                    "--snapshot-delay", "5s"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--snapshot-delay"), std::string::npos) << r.err;
  r = dfb.Run({"run-memory", "--id", "f", "--keys", "lots"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--keys"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace dfbench::testing
