// `dfbench run-replication` end to end: the built binary against real redis-server masters and
// replicas on this machine, short test times and small preloads.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <thread>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// Redis waits 5 s by default before a diskless full sync, for more replicas to join; without
// that wait the sync time is the dataset's.
const std::vector<std::string> kNoSyncDelay = {"--master-flags", "--repl-diskless-sync-delay 0"};

// Pids of the live children of `parent` whose command name is `comm` (redis-server renames its
// command line, so the name in /proc/<pid>/stat is what identifies it).
std::vector<int> ChildrenNamed(int parent, const std::string& comm) {
  std::vector<int> pids;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    auto stat = core::ReadFile(e.path() / "stat");
    if (!stat) continue;
    const auto open = stat->find('('), close = stat->rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(stat->substr(close + 2));
    std::string state;
    int ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && state != "Z" && stat->substr(open + 1, close - open - 1) == comm) {
      pids.push_back(std::stoi(name));
    }
  }
  return pids;
}

// What the upstream playground's compare.py needs of benchmark_results.csv: its four columns by
// name, Run_Name as text and the others as floats. Prints each row as JSON: the name, the three
// numbers, and the three fields' text.
constexpr const char* kPlaygroundReader = R"(
import csv, json, sys
with open(sys.argv[1], newline="") as f:
    reader = csv.DictReader(f)
    assert reader.fieldnames == ["Run_Name", "Time_Seconds", "RPS_Now", "p99_Latency_us"], reader.fieldnames
    rows = []
    for row in reader:
        fields = [row["Time_Seconds"], row["RPS_Now"], row["p99_Latency_us"]]
        rows.append([row["Run_Name"]] + [float(x) for x in fields] + fields)
print(json.dumps(rows))
)";

// Python reads every sample of `results` from `csv`, under the case's run name, each number
// with at most 3 decimals and equal to the JSON's to them.
void ExpectPlaygroundReads(const std::filesystem::path& csv, const json& results) {
  auto r = core::RunCapture({"python3", "-c", kPlaygroundReader, csv.string()});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->status.ok()) << r->err;
  const json rows = json::parse(r->out);
  size_t i = 0;
  for (const json& c : results["cases"]) {
    for (const json& sample : c["series"]) {
      ASSERT_LT(i, rows.size());
      const json& row = rows[i++];
      EXPECT_EQ(row[0], c["run_name"]);
      const char* keys[] = {"t_sec", "rps", "p99_us"};
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(row[1 + k].get<double>(), sample[keys[k]].get<double>(), 0.0005) << row;
        const std::string text = row[4 + k];
        const size_t dot = text.find('.');
        EXPECT_TRUE(dot == std::string::npos || text.size() - dot - 1 <= 3) << text;
      }
    }
  }
  EXPECT_EQ(i, rows.size());
}

class ReplicationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dfb_ = new DfbenchRunner("replication-" + std::to_string(getpid()));
    auto r = dfb_->Run(
        {"setup", "--id", "rep", "--provider", "local", "--engines", "redis", "--replicas", "1"});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() { EndSuiteSetup(dfb_, "rep"); }

  static std::vector<std::string> Args(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run-replication", "--id", "rep", "--engines", "redis"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  // results.json of the newest run.
  static json LatestResults() {
    json latest;
    std::string newest;
    for (const auto& e :
         std::filesystem::directory_iterator(dfb_->SetupDir("rep") / "replications")) {
      if (e.path().filename().string() > newest) newest = e.path().filename().string();
    }
    auto text = core::ReadFile(dfb_->SetupDir("rep") / "replications" / newest / "results.json");
    EXPECT_TRUE(text);
    return text ? json::parse(*text) : json();
  }

  // Cases qps=500 then qps=300 of `test_time` seconds on 5000 keys, in the background.
  static core::Process StartTwoCases(const std::string& test_time) {
    return dfb_->Start(Args(
        Concat({"--cases", "qps=500,qps=300", "--test-time", test_time, "--preload-keys", "5000"},
               kNoSyncDelay)));
  }

  // Waits until the background run's stderr contains `text`.
  static bool WaitForStderr(const std::string& text) {
    for (int i = 0; i < 1200; ++i) {
      auto err = core::ReadFile(dfb_->home() / "bg.stderr");
      if (err && err->find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

  static DfbenchRunner* dfb_;
};
DfbenchRunner* ReplicationTest::dfb_ = nullptr;

TEST_F(ReplicationTest, TwoCasesWithSeriesCoveringTheTestTime) {
  auto r = dfb_->Run(Args(Concat({"--cases", "qps=1000,maxload", "--test-time", "3",
                                  "--preload-keys", "20_000", "--value-size", "128"},
                                 kNoSyncDelay)));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("qps=1000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2,000"), std::string::npos) << r.out;  // total: 2 connections

  const json j = LatestResults();
  EXPECT_EQ(j["scenario"], "replication");
  EXPECT_EQ(j["status"], "completed");
  EXPECT_EQ(j["dfly_bench_ref"], "main");
  ASSERT_EQ(j["cases"].size(), 2u);
  for (const json& c : j["cases"]) {
    EXPECT_EQ(c["engine"], "redis");
    EXPECT_EQ(c["termination_reason"], "timeout") << c.dump();
    EXPECT_GT(c["sync_duration_ms"].get<double>(), 0);
    EXPECT_EQ(c["master_flags"], json({"--repl-diskless-sync-delay", "0"}));
    // One sample per second from the replica's start: the sync window, then the test time.
    ASSERT_GE(c["series"].size(), 3u);
    EXPECT_EQ(c["series"][0]["t_sec"], 1);
    for (const json& s : c["series"]) EXPECT_GT(s["rps"].get<double>(), 0) << c.dump();
  }
  EXPECT_EQ(j["cases"][0]["run_name"], "qps=1000");
  EXPECT_EQ(j["cases"][1]["run_name"], "maxload");

  const auto dir = dfb_->SetupDir("rep") / "replications" / j["run_id"].get<std::string>();
  auto csv = core::ReadFile(dir / "benchmark_results.csv");
  ASSERT_TRUE(csv);
  // One engine: Run_Name is the case's name as the reference writes it.
  EXPECT_EQ(csv->rfind("Run_Name,Time_Seconds,RPS_Now,p99_Latency_us\nqps=1000,1,", 0), 0u) << *csv;
  ExpectPlaygroundReads(dir / "benchmark_results.csv", j);
  EXPECT_TRUE(std::filesystem::exists(dir / "raw" / "redis-qps-1000-load.json"));
  EXPECT_TRUE(std::filesystem::exists(dir / "raw" / "redis-maxload-preload.json"));

  const json state = dfb_->State("rep");
  EXPECT_EQ(state["status"], "ready");
  EXPECT_EQ(state["benchmarks"].back()["kind"], "replication");
  EXPECT_EQ(state["benchmarks"].back()["status"], "completed");
}

TEST_F(ReplicationTest, SyncTakesLongerForLargerPreloads) {
  std::vector<double> sync_ms;
  for (const char* keys : {"2_000", "100_000", "600_000"}) {
    auto r = dfb_->Run(Args(Concat(
        {"--cases", "qps=200", "--test-time", "1", "--preload-keys", keys, "--value-size", "512"},
        kNoSyncDelay)));
    ASSERT_EQ(r.code, 0) << r.err;
    sync_ms.push_back(LatestResults()["cases"][0]["sync_duration_ms"].get<double>());
  }
  EXPECT_LT(sync_ms[0], sync_ms[1]);
  EXPECT_LT(sync_ms[1], sync_ms[2]);
}

TEST_F(ReplicationTest, KilledReplicaEndsItsCaseAndTheNextCaseRuns) {
  core::Process run = StartTwoCases("6");
  ASSERT_TRUE(WaitForStderr("[redis qps=500] full sync done"));
  // Master and replica are the run's redis-server children; the replica started last.
  std::vector<int> engines = ChildrenNamed(run.pid(), "redis-server");
  ASSERT_EQ(engines.size(), 2u);
  kill(*std::max_element(engines.begin(), engines.end()), SIGKILL);
  const auto status = run.WaitFor(std::chrono::minutes(3));
  ASSERT_TRUE(status);

  const json j = LatestResults();
  ASSERT_EQ(j["cases"].size(), 2u) << j.dump();
  EXPECT_EQ(j["cases"][0]["termination_reason"], "replica_disconnect");
  EXPECT_FALSE(j["cases"][0]["series"].empty());
  EXPECT_EQ(j["cases"][1]["termination_reason"], "timeout");
  EXPECT_EQ(j["status"], "completed");
}

TEST_F(ReplicationTest, InterruptKeepsFinishedCasesAndTheSetupReady) {
  core::Process run = StartTwoCases("2");
  ASSERT_TRUE(WaitForStderr("[redis qps=300] full sync done"));
  ASSERT_NO_FATAL_FAILURE(dfb_->Interrupt(&run, std::chrono::minutes(1)));

  const json j = LatestResults();
  EXPECT_EQ(j["status"], "interrupted");
  ASSERT_EQ(j["cases"].size(), 2u);
  EXPECT_EQ(j["cases"][0]["termination_reason"], "timeout");
  EXPECT_EQ(j["cases"][1]["termination_reason"], "ctx_cancelled");
  EXPECT_EQ(dfb_->State("rep")["status"], "ready");
}

TEST_F(ReplicationTest, RejectedReplicaFlagFailsTheCaseWithTheEnginesOwnLine) {
  auto r = dfb_->Run(Args({"--cases", "qps=100", "--test-time", "1", "--preload-keys", "1000",
                           "--replica-flags", "--no-such-directive yes"}));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("Bad directive or wrong number of arguments"), std::string::npos) << r.err;
  const json j = LatestResults();
  EXPECT_EQ(j["status"], "failed");
  EXPECT_EQ(j["cases"][0]["termination_reason"], "error");
  EXPECT_NE(j["cases"][0]["error"].get<std::string>().find("Bad directive"), std::string::npos);
}

TEST_F(ReplicationTest, BadFlagsAreUsageErrors) {
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {"--cases", "qps=fast"}, {"--preload-keys", "lots"}, {"--ratio", "x"}}) {
    auto r = dfb_->Run(Args(extra));
    EXPECT_EQ(r.code, 2) << extra[0];
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
  }
}

}  // namespace
}  // namespace dfbench::testing
