// Results that must not lie: a run whose files cannot be written, trials whose requests all
// failed, a sweep cut short after a passing step and a disk that fills up mid-run, each against
// a real redis-server or memcached, asserting the exit code, the setup's state and history, and
// that nothing is left running.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "support/scoped_change.h"
#include "support/scoped_temp_dir.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// A run of short SET:GET trials, long enough in all (five trials) for a fault to strike between
// its first trial and its end.
std::vector<std::string> ShortTrials(const std::string& id) {
  return {"run",   "--id",
          id,      "--engines",
          "redis", "--memtier-threads",
          "1",     "--memtier-clients",
          "2",     "--memtier-pipeline",
          "1",     "--memtier-requests",
          "4000",  "--warmup-requests",
          "0",     "--trials",
          "5",     "--cooldown",
          "0"};
}

// Waits (up to 60 s) for the background run to exit; its exit code, or -1 when it did not.
int WaitForExit(core::Process* run) {
  const auto status = run->WaitFor(std::chrono::seconds(60));
  if (!status) return -1;
  return status->signal ? 128 + status->signal : status->code;
}

std::string Read(const fs::path& path) {
  auto text = core::ReadFile(path);
  return text ? *text : std::string();
}

// `dir` made immutable (chattr +i) until the change goes.
ScopedChange MakeImmutable(const fs::path& dir) {
  auto r = core::RunCapture({"chattr", "+i", dir.string()});
  return ScopedChange(r && r->status.ok(), [dir] {
    (void)core::RunCapture({"chattr", "-i", dir.string()});
  });
}

// $TMPDIR pointed at `dir` until the change goes (the runs started meanwhile inherit it).
ScopedChange PointTmpdirAt(const fs::path& dir) {
  const char* old = std::getenv("TMPDIR");
  setenv("TMPDIR", dir.c_str(), 1);
  return ScopedChange(true, [old = std::string(old ? old : "")] {
    if (old.empty()) {
      unsetenv("TMPDIR");
    } else {
      setenv("TMPDIR", old.c_str(), 1);
    }
  });
}

// One local setup with redis and memcached, shared by the tests that leave it ready.
// One trial of SETs of 2 MB values, which memcached refuses (its items are at most 1 MB): every
// request fails.
const std::vector<std::string> kRefusedValuesRun = {"run",       "--id",
                                                    "rf",        "--engines",
                                                    "memcached", "--memtier-threads",
                                                    "1",         "--memtier-clients",
                                                    "1",         "--memtier-pipeline",
                                                    "1",         "--memtier-requests",
                                                    "10",        "--warmup-requests",
                                                    "0",         "--trials",
                                                    "1",         "--cooldown",
                                                    "0",         "--memtier-data-size",
                                                    "2000000",   "--memtier-ratio",
                                                    "1:0"};

class ResultsFault : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dfb_ = new DfbenchRunner("results-fault");
    auto r = dfb_->Run({"setup", "--id", "rf", "--engines", "redis,memcached", "--yes"});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() { EndSuiteSetup(dfb_, "rf"); }

  void TearDown() override {
    EXPECT_EQ(dfb_->State("rf")["status"], "ready");
    EXPECT_TRUE(ProcessesMatching(dfb_->home().string()).empty())
        << "an engine or load generator was left running";
  }

  static json LastRun() { return dfb_->State("rf")["benchmarks"].back(); }

  static DfbenchRunner* dfb_;
};

DfbenchRunner* ResultsFault::dfb_ = nullptr;

TEST_F(ResultsFault, ImmutableResultsDirFailsTheRunAndKeepsItsNumbers) {
  auto run = dfb_->Start(ShortTrials("rf"));
  const fs::path run_dir = dfb_->WaitForRunDir(
      "rf", "benchmarks", [](const fs::path& dir) { return FirstEngineHas(dir, "trials", 1); });
  ASSERT_FALSE(run_dir.empty());
  const ScopedChange immutable = MakeImmutable(run_dir);
  ASSERT_TRUE(immutable.made()) << "chattr +i " << run_dir;

  EXPECT_EQ(WaitForExit(&run), 5) << dfb_->BackgroundErrTail();
  const std::string err = Read(dfb_->home() / "bg.stderr");
  const fs::path kept =
      dfb_->SetupDir("rf") / ("unwritten-" + run_dir.filename().string() + ".json");
  EXPECT_NE(err.find("the numbers measured are in " + kept.string()), std::string::npos) << err;
  EXPECT_EQ(err.find("results: "), std::string::npos) << "names a file that lies:\n" << err;
  const json record = LastRun();
  EXPECT_EQ(record["status"], "failed");
  EXPECT_EQ(record["path"], kept.string());
  EXPECT_NE(record.value("error", "").find("results not written"), std::string::npos) << record;
  const json results = ReadJsonIfComplete(kept);
  ASSERT_TRUE(results.is_object()) << kept;
  EXPECT_EQ(results["status"], "failed");
  EXPECT_EQ(results["engines"][0]["trials"].size(), 5u);
  // What the immutable directory still holds is the stale "running" file, named by nobody.
  EXPECT_EQ(ReadJsonIfComplete(run_dir / "results.json")["status"], "running");
}

TEST_F(ResultsFault, EveryRequestFailingFailsTheTrialAndCompareLeavesItOut) {
  const std::vector<std::string> tiny = {
      "--engines",         "redis", "--key-maximum",      "1000", "--test-time",       "1",
      "--warmup-time",     "0",     "--trials",           "1",    "--memtier-threads", "1",
      "--memtier-clients", "2",     "--memtier-pipeline", "4",    "--cooldown",        "0",
      "--command-name",    "PROBE"};
  auto good = dfb_->Run(
      Concat(Concat({"run-commands", "--id", "rf", "--command-template", "EXISTS __key__"}, tiny),
             {"--output", "json"}));
  ASSERT_EQ(good.code, 0) << good.err;
  const fs::path good_file = dfb_->SetupDir("rf") / LastRun()["path"].get<std::string>();

  auto bogus = dfb_->Run(
      Concat({"run-commands", "--id", "rf", "--command-template", "BOGUSCMD __key__"}, tiny));
  EXPECT_EQ(bogus.code, 1) << bogus.err;
  EXPECT_NE(bogus.out.find("trial 1 failed: no request succeeded"), std::string::npos) << bogus.out;
  EXPECT_EQ(LastRun()["status"], "failed");
  const fs::path bogus_file = dfb_->SetupDir("rf") / LastRun()["path"].get<std::string>();
  const json r = ReadJsonIfComplete(bogus_file);
  ASSERT_TRUE(r.is_object()) << bogus_file;
  EXPECT_EQ(r["status"], "failed");
  const json& trial = r["commands"][0]["engines"][0]["trials"][0];
  EXPECT_EQ(trial["ops"], 0);
  EXPECT_GT(trial["errors"].get<uint64_t>(), 0u);
  EXPECT_NE(trial.value("failed", "").find("no request succeeded"), std::string::npos) << trial;
  EXPECT_EQ(r["commands"][0]["engines"][0]["throughput"]["median"], 0);

  // The failed trial is missing data: a regression by absence, said so, never a number.
  auto cmp = dfb_->Run({"compare", good_file.string(), bogus_file.string(), "--format", "json"});
  EXPECT_EQ(cmp.code, 1) << cmp.err;
  const json c = json::parse(cmp.out, nullptr, false);
  ASSERT_TRUE(c.is_object()) << cmp.out;
  EXPECT_NE(cmp.out.find("candidate PROBE/redis trial 1 failed"), std::string::npos) << cmp.out;
  bool throughput_seen = false;
  for (const json& m : c["rows"]) {
    if (m["metric"] != "throughput") continue;
    throughput_seen = true;
    EXPECT_EQ(m["verdict"], "missing") << m;
  }
  EXPECT_TRUE(throughput_seen) << cmp.out;
}

TEST_F(ResultsFault, TooLargeValuesForMemcachedFailTheTrial) {
  auto r = dfb_->Run(kRefusedValuesRun);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("trial 1 failed: "), std::string::npos) << r.out;
  EXPECT_EQ(LastRun()["status"], "failed");
  const json results =
      ReadJsonIfComplete(dfb_->SetupDir("rf") / LastRun()["path"].get<std::string>());
  ASSERT_TRUE(results.is_object());
  EXPECT_FALSE(results["engines"][0]["trials"][0].value("failed", "").empty()) << results;
}

// run-memory fills memcached with SETs of 2 MB values, which it refuses: the engine's row says
// the fill failed and the run exits 1 rather than measuring memory per key on no keys.
TEST_F(ResultsFault, RunMemoryFillThatMemcachedRefusesFailsTheEngine) {
  auto r = dfb_->Run({"run-memory", "--id", "rf", "--engines", "memcached", "--keys", "20",
                      "--value-size", "2000000", "--snapshot", "none", "--test-time", "2s",
                      "--cooldown", "0"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(LastRun()["status"], "failed");
  const json results =
      ReadJsonIfComplete(dfb_->SetupDir("rf") / LastRun()["path"].get<std::string>());
  ASSERT_TRUE(results.is_object());
  EXPECT_NE(results["engines"][0].value("error", "").find("the fill had 20 error replies"),
            std::string::npos)
      << results["engines"][0];
}

// A failed trial is marked in every form of the results, not only in results.json: the CSV on
// stdout and in the run directory (its `failed` column) and the HTML report (beside the row).
TEST_F(ResultsFault, AFailedTrialIsMarkedInTheCsvAndTheHtmlReport) {
  auto r = dfb_->Run(Concat(kRefusedValuesRun, {"--output", "csv"}));
  EXPECT_EQ(r.code, 1) << r.err;
  const fs::path results = dfb_->SetupDir("rf") / LastRun()["path"].get<std::string>();
  const json j = ReadJsonIfComplete(results);
  ASSERT_TRUE(j.is_object()) << results;
  const std::string why = j["engines"][0]["trials"][0].value("failed", "");
  ASSERT_FALSE(why.empty()) << j;
  const std::string csv = Read(results.parent_path() / "results.csv");
  for (const std::string& text : {r.out, csv}) {
    EXPECT_EQ(text.substr(0, text.find('\n')),
              "engine,version,trial,throughput,p50,p99,p999,avg_latency,ops,errors,duration_sec,"
              "failed")
        << text;
    // The trial's row ends with its reason (quoted: it may hold a comma).
    EXPECT_NE(text.find(",1,"), std::string::npos) << text;
    EXPECT_TRUE(text.find("," + why + "\n") != std::string::npos ||
                text.find(",\"" + why + "\"\n") != std::string::npos)
        << why << "\n"
        << text;
  }
  const fs::path page = dfb_->home() / "failed-report.html";
  auto report = dfb_->Run({"report", results.string(), "-o", page.string()});
  ASSERT_EQ(report.code, 0) << report.err;
  const std::string html = Read(page);
  EXPECT_NE(html.find("(1 failed)"), std::string::npos);
  EXPECT_NE(html.find("trial 1 failed: "), std::string::npos);
}

// A sweep step is judged by the share of its requests that failed: half of them (memcached
// refuses every too large SET of a 1:1 mix) fail each step under --max-error-pct 10, each row
// saying so, and none for its errors under 90.
TEST_F(ResultsFault, SweepStepsFailByTheirShareOfFailedRequests) {
  auto sweep = [](const std::string& max_error_pct) {
    auto r = dfb_->Run({"sweep",      "--id",
                        "rf",         "--engines",
                        "memcached",  "--slo",
                        "p99<=10s",   "--memtier-threads",
                        "1",          "--memtier-clients",
                        "1",          "--memtier-pipeline",
                        "1",          "--memtier-data-size",
                        "2000000",    "--memtier-ratio",
                        "1:1",        "--step-time",
                        "1s",         "--confirm",
                        "0",          "--cooldown",
                        "0",          "--max-error-pct",
                        max_error_pct});
    EXPECT_NE(r.code, 2) << r.err;
    const json j = ReadJsonIfComplete(dfb_->SetupDir("rf") / LastRun()["path"].get<std::string>());
    EXPECT_TRUE(j.is_object());
    return std::make_pair(r, j);
  };
  const auto [strict, strict_json] = sweep("10");
  ASSERT_TRUE(strict_json.is_object());
  EXPECT_EQ(strict_json["settings"]["max_error_pct"], 10) << strict_json["settings"];
  int judged = 0;
  for (const json& s : strict_json["engines"][0]["steps"]) {
    if (s["phase"] == "capacity") continue;
    ++judged;
    EXPECT_EQ(s["passed"], false) << s;
    EXPECT_NE(s.value("reason", "").find("% of requests failed"), std::string::npos) << s;
    EXPECT_NE(s.value("reason", "").find("above the 10 % allowed"), std::string::npos) << s;
  }
  EXPECT_GT(judged, 0) << strict_json;
  EXPECT_NE(strict.out.find("above the 10 % allowed"), std::string::npos) << strict.out;

  const auto [lenient, lenient_json] = sweep("90");
  ASSERT_TRUE(lenient_json.is_object());
  // Judged by the rest of the rules only (2 MB values leave so few ops/s that a step may still
  // fall short of its rate).
  int judged_lenient = 0;
  for (const json& s : lenient_json["engines"][0]["steps"]) {
    EXPECT_EQ(s.value("reason", "").find("requests failed"), std::string::npos) << s;
    judged_lenient += s["phase"] != "capacity" ? 1 : 0;
  }
  EXPECT_GT(judged_lenient, 0) << lenient_json;
}

TEST_F(ResultsFault, InterruptedSweepShowsItsBestPassingRate) {
  auto sweep = dfb_->Start({"sweep", "--id", "rf", "--engines", "redis", "--slo", "p99<=10s",
                            "--memtier-threads", "1", "--memtier-clients", "2",
                            "--memtier-pipeline", "4", "--step-time", "1s", "--cooldown", "0"});
  const fs::path run_dir = dfb_->WaitForRunDir("rf", "sweeps", [](const fs::path& dir) {
    const json r = ReadJsonIfComplete(dir / "results.json");
    if (!r.is_object() || r["engines"].empty()) return false;
    for (const json& s : r["engines"][0]["steps"]) {
      if (s["phase"] != "capacity" && s["passed"] == true) return true;
    }
    return false;
  });
  ASSERT_FALSE(run_dir.empty());
  ASSERT_NO_FATAL_FAILURE(dfb_->Interrupt(&sweep));
  const std::string out = Read(dfb_->home() / "bg.stdout");
  EXPECT_NE(out.find("interrupted; best passing rate so far "), std::string::npos) << out;
  EXPECT_EQ(out.find("no rate kept the objectives"), std::string::npos) << out;
  EXPECT_EQ(LastRun()["status"], "interrupted");
}

// The disk of the setup fills up mid-run: the run fails with its numbers kept in $TMPDIR and
// the setup is ready again, its state written in the space it had set aside.
TEST(ResultsDiskFull, FullDiskFailsTheRunAndRestoresTheSetup) {
  DfbenchRunner dfb("results-disk-full");
  ScopedTempDir tmp("results-disk-full-tmp");
  const ScopedChange tmpdir = PointTmpdirAt(tmp.path());
  const ScopedChange disk = MountTmpfs(dfb.SetupDir("full"), "8m");
  if (!disk.made()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
  ASSERT_EQ(dfb.Run({"setup", "--id", "full", "--engines", "redis", "--yes"}).code, 0);

  auto run = dfb.Start(ShortTrials("full"));
  const fs::path run_dir = dfb.WaitForRunDir(
      "full", "benchmarks", [](const fs::path& dir) { return FirstEngineHas(dir, "trials", 1); });
  ASSERT_FALSE(run_dir.empty());
  {
    std::ofstream filler(dfb.SetupDir("full") / "filler", std::ios::binary);
    const std::string chunk(64 * 1024, 'x');
    for (int i = 0; i < 256 && filler.write(chunk.data(), chunk.size()).flush(); ++i) {
    }
  }

  // Which write meets the full disk first decides the exit code: the load generator's report
  // (the trial fails: exit 1, and the results written once the run's scratch files are gone) or
  // the results themselves (exit 5, kept in $TMPDIR). Either way the run failed and the setup
  // is ready again.
  const int code = WaitForExit(&run);
  EXPECT_TRUE(code == 1 || code == 5) << code << "\n" << dfb.BackgroundErrTail();
  const json state = dfb.State("full");
  EXPECT_EQ(state["status"], "ready");
  const json record = state["benchmarks"].back();
  EXPECT_EQ(record["status"], "failed");
  if (code == 5) {
    const fs::path kept = tmp.path() / ("dfbench-full-" + run_dir.filename().string() + ".json");
    EXPECT_EQ(record["path"], kept.string());
    EXPECT_TRUE(ReadJsonIfComplete(kept).is_object()) << kept;
  } else {
    EXPECT_TRUE(
        ReadJsonIfComplete(dfb.SetupDir("full") / record["path"].get<std::string>()).is_object())
        << record;
  }
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty())
      << "an engine or load generator was left running";
}

}  // namespace
}  // namespace dfbench::testing
