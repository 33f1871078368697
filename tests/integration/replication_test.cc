// `dfbench run-replication` end to end: the built binary against real redis-server masters and
// replicas on this machine, short test times and small preloads.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/test_server.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// Redis waits 5 s by default before a diskless full sync, for more replicas to join; without
// that wait the sync time is the dataset's.
const std::vector<std::string> kNoSyncDelay = {"--master-flags", "--repl-diskless-sync-delay 0"};

// The median of `series`' `field`, as compare and the table compute it.
double Median(const json& series, const char* field) {
  std::vector<double> v;
  for (const json& s : series) v.push_back(s[field].get<double>());
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
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

  // The preload writes for 1 s unless `extra` says otherwise, not the reference's 30, to keep
  // the cases short.
  static std::vector<std::string> Args(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run-replication", "--id", "rep", "--engines", "redis"};
    args.insert(args.end(), extra.begin(), extra.end());
    if (std::find(extra.begin(), extra.end(), "--preload-time") == extra.end()) {
      args.insert(args.end(), {"--preload-time", "1s"});
    }
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

  static std::string Write(const std::string& name, const json& j) {
    const auto path = dfb_->home() / name;
    std::ofstream(path) << j.dump(2);
    return path.string();
  }

  // Waits until the background run's stderr contains `text`.
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
    // The series is the test time after the stable sync, one sample per second from 1, as the
    // reference's; the seconds from the load's start to the sync are kept apart and cover it.
    ASSERT_EQ(c["series"].size(), 3u) << c.dump();
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(c["series"][i]["t_sec"], i + 1);
    for (const json& s : c["series"]) EXPECT_GT(s["rps"].get<double>(), 0) << c.dump();
    ASSERT_FALSE(c["sync_series"].empty()) << c.dump();
    EXPECT_EQ(c["sync_series"][0]["t_sec"], 1);
    EXPECT_GE(c["sync_series"].back()["t_sec"].get<double>(),
              c["sync_duration_ms"].get<double>() / 1000);
    // Time-boxed random writes over the key range 0..19999, as the reference's preload.
    EXPECT_NE(c["preload_args"].get<std::string>().find("--test-time 1s"), std::string::npos)
        << c["preload_args"];
    EXPECT_NE(c["preload_args"].get<std::string>().find("--key-maximum 19999"), std::string::npos)
        << c["preload_args"];
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

// A larger preload takes longer to sync, by as much as the machine's speed makes it, so that is
// not asserted. What the data sets exactly: each case preloads over its own key range, its
// replica reaches stable sync (its sync time is recorded), and once the load stops the replica
// holds every key its master does: no more than the range and the sentinel.
TEST_F(ReplicationTest, EachPreloadSizeSyncsInFullAndKeepsToItsKeyRange) {
  for (const uint64_t keys : {2'000, 100'000, 600'000}) {
    SCOPED_TRACE(keys);
    auto r =
        dfb_->Run(Args(Concat({"--cases", "qps=200", "--test-time", "1", "--preload-keys",
                               std::to_string(keys), "--value-size", "512", "--preload-time", "3s"},
                              kNoSyncDelay)));
    ASSERT_EQ(r.code, 0) << r.err;
    const json c = LatestResults()["cases"][0];
    EXPECT_EQ(c["termination_reason"], "timeout") << c.dump();
    EXPECT_GT(c["sync_duration_ms"].get<double>(), 0);
    EXPECT_NE(
        c["preload_args"].get<std::string>().find("--key-maximum " + std::to_string(keys - 1)),
        std::string::npos)
        << c["preload_args"];
    std::smatch caught_up;
    ASSERT_TRUE(
        std::regex_search(r.err, caught_up, std::regex(R"(replica caught up: (\d+) keys on both)")))
        << r.err;
    const uint64_t held = std::stoull(caught_up[1].str());
    EXPECT_GT(held, 0u);
    EXPECT_LE(held, keys + 1);  // the range's and the reference's sentinel, READY
  }
}

// A results file of the reference (its README's schema, written by hand) for the case we ran:
// compare pairs the two by run name and compares them metric by metric.
TEST_F(ReplicationTest, AReferenceFileForTheSameCaseComparesMetricByMetric) {
  auto r = dfb_->Run(Args(Concat({"--cases", "qps=500", "--test-time", "4", "--preload-keys",
                                  "10_000", "--value-size", "256", "--ratio", "1:0"},
                                 kNoSyncDelay)));
  ASSERT_EQ(r.code, 0) << r.err;
  const json ours = LatestResults();
  const json& mine = ours["cases"][0];
  ASSERT_EQ(mine["series"].size(), 4u) << mine.dump();
  const std::string ours_path = Write("ours.json", ours);

  const json reference = json::parse(R"({
    "scenario": "replication",
    "run_id": "20260408-143217",
    "setup_id": "rep-demo",
    "created_at": "2026-04-08T14:32:17Z",
    "completed_at": "2026-04-08T14:36:02Z",
    "region": "us-east-1",
    "master_instance": "c7g.4xlarge",
    "replica_instance": "c7g.4xlarge",
    "client_instance": "c7g.4xlarge",
    "dfly_bench_ref": "main",
    "cases": [
      {
        "run_name": "qps=500",
        "preload_args": "dfly_bench --h=10.0.1.42 --ratio=1:0 --proactor_threads=4 -c=15 --pipeline=10 --qps=0 --test_time=30",
        "load_args": "dfly_bench --h=10.0.1.42 --ratio=1:0 --proactor_threads=1 -c=2 --pipeline=5 --qps=500",
        "master_flags": ["--repl-diskless-sync-delay", "0"],
        "replica_flags": [],
        "series": [
          {"t_sec": 1, "rps": 1000, "p99_us": 2100},
          {"t_sec": 2, "rps": 998, "p99_us": 2050},
          {"t_sec": 3, "rps": 1002, "p99_us": 1900},
          {"t_sec": 4, "rps": 999, "p99_us": 2000}
        ],
        "sync_duration_ms": 3427,
        "termination_reason": "timeout"
      }
    ]
  })");
  const std::string reference_path = Write("reference.json", reference);

  auto cmp = dfb_->Run({"compare", reference_path, ours_path, "--format", "json"});
  ASSERT_TRUE(cmp.code == 0 || cmp.code == 1) << cmp.err;
  const json c = json::parse(cmp.out);
  EXPECT_EQ(c["shape"], "replication");
  EXPECT_EQ(c["only_in_baseline"], json::array());
  EXPECT_EQ(c["only_in_candidate"], json::array());
  ASSERT_EQ(c["rows"].size(), 3u) << c.dump();
  const std::vector<std::tuple<std::string, double, double>> expected = {
      {"median_rps", 999.5, Median(mine["series"], "rps")},
      {"median_p99_us", 2025, Median(mine["series"], "p99_us")},
      {"sync_duration_ms", 3427, mine["sync_duration_ms"].get<double>()}};
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& [metric, baseline, candidate] = expected[i];
    EXPECT_EQ(c["rows"][i]["run_name"], "qps=500");
    EXPECT_EQ(c["rows"][i]["metric"], metric);
    EXPECT_DOUBLE_EQ(c["rows"][i]["baseline"].get<double>(), baseline) << metric;
    EXPECT_DOUBLE_EQ(c["rows"][i]["candidate"].get<double>(), candidate) << metric;
  }

  // Our case written as the reference would write it (its fields only): nothing differs, so
  // our medians and the reference's are taken over the same seconds.
  json as_reference = reference;
  json& rc = as_reference["cases"][0];
  rc["series"] = mine["series"];
  rc["sync_duration_ms"] = mine["sync_duration_ms"];
  for (const auto& [a, b] : {std::pair{Write("as-reference.json", as_reference), ours_path},
                             std::pair{ours_path, Write("as-reference.json", as_reference)}}) {
    auto same = dfb_->Run({"compare", a, b, "--format", "json"});
    EXPECT_EQ(same.code, 0) << same.out << same.err;
    const json s = json::parse(same.out);
    ASSERT_EQ(s["rows"].size(), 3u);
    for (const json& row : s["rows"]) EXPECT_EQ(row["delta_pct"], 0) << row.dump();
  }
}

TEST_F(ReplicationTest, KilledReplicaEndsItsCaseAndTheNextCaseRuns) {
  core::Process run = StartTwoCases("6");
  ASSERT_TRUE(
      dfb_->WaitForBackgroundErr("[redis qps=500] full sync done", std::chrono::seconds(120)));
  // Master and replica are the run's redis-server children; the replica started last.
  std::vector<int> engines = ChildrenNamed(run.pid(), "redis-server");
  ASSERT_EQ(engines.size(), 2u);
  const int master = *std::min_element(engines.begin(), engines.end());
  // The series holds whole seconds after the sync: let two of the six pass before the kill
  // (killed at once, a loaded machine can end the case before its first second closes). The
  // open loop never sends early, so 1500 SETs and GETs at 500/s after the sync was seen span
  // more than two seconds of its schedule, even if some of them left late together.
  auto calls = [&] { return CallsOn("127.0.0.1", RedisPort(master), {"set", "get"}); };
  const uint64_t at_sync = calls();
  ASSERT_TRUE(WaitUntil([&] { return calls() >= at_sync + 1500; }, std::chrono::seconds(60),
                        "1500 SETs and GETs on the master"))
      << dfb_->BackgroundErrTail();
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
  ASSERT_TRUE(
      dfb_->WaitForBackgroundErr("[redis qps=300] full sync done", std::chrono::seconds(120)));
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
  // Said once, by the replica's turn.
  EXPECT_EQ(CountOccurrences(r.err, "Bad directive or wrong number of arguments"), 1U) << r.err;
  const json j = LatestResults();
  EXPECT_EQ(j["status"], "failed");
  EXPECT_EQ(j["cases"][0]["termination_reason"], "error");
  EXPECT_NE(j["cases"][0]["error"].get<std::string>().find("Bad directive"), std::string::npos);
}

TEST_F(ReplicationTest, RejectedMasterFlagFailsTheCaseSayingItOnce) {
  auto r = dfb_->Run(Args({"--cases", "qps=100", "--test-time", "1", "--preload-keys", "1000",
                           "--master-flags", "--no-such-directive yes"}));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(CountOccurrences(r.err, "Bad directive or wrong number of arguments"), 1U) << r.err;
  const json j = LatestResults();
  EXPECT_EQ(j["cases"][0]["termination_reason"], "error");
  EXPECT_NE(j["cases"][0]["error"].get<std::string>().find("master: "), std::string::npos);
}

// GET renamed away on the master: half of a 1:1 load is answered with an error. The case fails
// by --max-error-pct's default (1 %) and passes when half may fail.
TEST_F(ReplicationTest, ALoadWithFailingRequestsFailsItsCaseByMaxErrorPct) {
  const std::vector<std::string> half_failing = {
      "--cases",        "qps=200", "--test-time",    "2",
      "--preload-keys", "1000",    "--master-flags", "--rename-command GET NOGET"};
  auto strict = dfb_->Run(Args(half_failing));
  EXPECT_EQ(strict.code, 1) << strict.err;
  const json failed = LatestResults();
  EXPECT_EQ(failed["status"], "failed");
  EXPECT_EQ(failed["cases"][0]["termination_reason"], "error");
  const std::string why = failed["cases"][0].value("error", "");
  EXPECT_NE(why.find("% of requests failed"), std::string::npos) << why;
  EXPECT_NE(why.find("above the 1 % allowed"), std::string::npos) << why;
  EXPECT_FALSE(failed["cases"][0]["series"].empty()) << "the measured seconds are kept";

  auto lenient = dfb_->Run(Args(Concat(half_failing, {"--max-error-pct", "60"})));
  EXPECT_EQ(lenient.code, 0) << lenient.err;
  EXPECT_EQ(LatestResults()["cases"][0]["termination_reason"], "timeout");
}

TEST_F(ReplicationTest, BadFlagsAreUsageErrors) {
  for (const auto& extra : std::vector<std::vector<std::string>>{{"--cases", "qps=fast"},
                                                                 {"--preload-keys", "lots"},
                                                                 {"--ratio", "x"},
                                                                 {"--max-error-pct", "101"}}) {
    auto r = dfb_->Run(Args(extra));
    EXPECT_EQ(r.code, 2) << extra[0];
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
  }
}

}  // namespace
}  // namespace dfbench::testing
