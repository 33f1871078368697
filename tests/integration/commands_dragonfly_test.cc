// `run-commands` and `run-commands-dfly` end to end against the real Dragonfly and the real
// dfly_bench of the test beds (skipped, saying so, without them): tiny settings, one local setup
// for the suite.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/testbed_engines.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// Every key path of a document, arrays' items folded into "[]": its schema, without values.
void CollectPaths(const json& doc, const std::string& at, std::set<std::string>* paths) {
  if (doc.is_object()) {
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      paths->insert(at + "/" + it.key());
      CollectPaths(*it, at + "/" + it.key(), paths);
    }
  } else if (doc.is_array()) {
    for (const json& item : doc) CollectPaths(item, at + "[]", paths);
  }
}

std::set<std::string> Schema(const json& doc) {
  std::set<std::string> paths;
  CollectPaths(doc, "", &paths);
  return paths;
}

class DragonflyCommandsCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!DflyBenchSkipReason().empty()) return;
    dfb_ = new DfbenchRunner("commands-dfly-" + std::to_string(getpid()));
    auto r = dfb_->Run({"setup", "--id", "df", "--engines", "dragonfly", "--dragonfly_binary",
                        DragonflyBinary().string()});
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    if (dfb_) EndSuiteSetup(dfb_, "df");
  }
  void SetUp() override {
    if (auto why = DflyBenchSkipReason(); !why.empty()) GTEST_SKIP() << why;
  }

  // run-commands-dfly (the real dfly_bench) or run-commands (the built-in generator) with its
  // load: 1 thread x 2 connections, pipeline 5.
  static std::vector<std::string> CommandWithLoad(bool dfly_bench) {
    if (!dfly_bench) {
      return SplitArgs("run-commands --memtier-threads 1 --memtier-clients 2 --memtier-pipeline 5");
    }
    return Concat(SplitArgs("run-commands-dfly --dfly-bench-threads 1 --dfly-bench-conns 2 "
                            "--dfly-bench-pipeline 5"),
                  {"--dfly-bench-binary", DflyBenchBinary().string()});
  }

  // CommandWithLoad on Dragonfly, small (kSmallCommandTrial); `args` add the command.
  static CliResult RunCli(bool dfly_bench, const std::vector<std::string>& args) {
    const std::vector<std::string> on_dragonfly =
        SplitArgs("--id df --engines dragonfly --dragonfly_num_shards 0 --output json");
    return dfb_->Run(Concat(
        Concat(Concat(CommandWithLoad(dfly_bench), on_dragonfly), kSmallCommandTrial), args));
  }

  // RunCli that must succeed: its parsed stdout.
  static json Run(bool dfly_bench, const std::vector<std::string>& args) {
    return SucceededJson(RunCli(dfly_bench, args));
  }

  static std::filesystem::path RunDir(const json& out) {
    return dfb_->SetupDir("df") / "commands" / out["run_id"].get<std::string>();
  }

  static inline DfbenchRunner* dfb_ = nullptr;
};

// GET measured by the real dfly_bench (which preloads it itself) and by the built-in generator:
// the same result schema, each tagged with its tool, and `compare` takes the two files, noting
// that the load generators differ.
TEST_F(DragonflyCommandsCliTest, DflyBenchAndBuiltinResultsShareTheSchemaAndCompare) {
  const json dfly = Run(true, {"--command", "GET"});
  ASSERT_TRUE(dfly.contains("commands")) << dfly.dump();
  EXPECT_EQ(dfly["tool"], "dfly_bench");
  EXPECT_EQ(dfly["status"], "completed");
  const json& e = dfly["commands"][0]["engines"][0];
  EXPECT_EQ(e["engine"], "dragonfly");
  ASSERT_EQ(e["trials"].size(), 1u) << e.dump();
  const json& t = e["trials"][0];
  EXPECT_GT(t["ops"].get<uint64_t>(), 0u);
  EXPECT_EQ(t["errors"], 0);
  EXPECT_DOUBLE_EQ(t["throughput"].get<double>(), t["ops"].get<double>());  // over 1 s
  EXPECT_GT(t["p50"].get<double>(), 0);
  EXPECT_GE(t["p99"].get<double>(), t["p50"].get<double>());
  EXPECT_GE(t["p999"].get<double>(), t["p99"].get<double>());
  EXPECT_GT(t["avg_latency"].get<double>(), 0);
  ASSERT_EQ(e["preloads"].size(), 1u);
  EXPECT_EQ(e["preloads"][0]["keys"], 1000);  // dfly_bench's fill wrote keys 1..1000
  EXPECT_EQ(e["preloads"][0]["ops"], 1000);
  EXPECT_EQ(e["keyspace"][0]["keys_before"], 1000);
  const auto raw = RunDir(dfly) / "memtier";
  for (const char* file : {"dragonfly-GET-t1.json", "dragonfly-GET-t1.txt",
                           "preload/dragonfly-GET-t1-p1.json", "preload/dragonfly-GET-t1-p1.txt"}) {
    EXPECT_TRUE(std::filesystem::exists(raw / file)) << file;
  }

  const json builtin = Run(false, {"--command", "GET"});
  ASSERT_TRUE(builtin.contains("commands")) << builtin.dump();
  EXPECT_EQ(builtin["tool"], "builtin");
  // The same fields, but for the dfly_bench ref only a dfly_bench run records, and the CPU use
  // only the built-in generator reports of itself.
  std::set<std::string> dfly_schema = Schema(dfly);
  EXPECT_EQ(dfly_schema.erase("/dfly_bench_ref"), 1u);
  std::set<std::string> builtin_schema = Schema(builtin);
  for (const char* own : {"client_cpu", "client_cpu_demand", "client_bound"}) {
    builtin_schema.erase(std::string("/commands[]/engines[]/trials[]/") + own);
  }
  EXPECT_EQ(dfly_schema, builtin_schema);

  const std::string base = (RunDir(builtin) / "results.json").string();
  const std::string cand = (RunDir(dfly) / "results.json").string();
  auto r = dfb_->Run({"compare", base, cand, "--format", "json"});
  // 0 or 1: two generators on a shared 2-vCPU machine may well differ by more than 5%.
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.code << ": " << r.err;
  const json verdict = json::parse(r.out);
  EXPECT_EQ(verdict["shape"], "commands");
  EXPECT_EQ(verdict["regressed"], r.code == 1);
  std::set<std::string> metrics;
  for (const json& row : verdict["rows"]) {
    EXPECT_EQ(row["command"], "GET");
    EXPECT_EQ(row["engine"], "dragonfly");
    EXPECT_GT(row["baseline"].get<double>(), 0) << row.dump();
    EXPECT_GT(row["candidate"].get<double>(), 0) << row.dump();
    metrics.insert(row["metric"].get<std::string>());
  }
  EXPECT_EQ(metrics, (std::set<std::string>{"throughput", "p50", "p99", "p999", "avg_latency"}));
  const auto& notes = verdict["notes"];
  EXPECT_NE(std::find(notes.begin(), notes.end(), "tool: builtin -> dfly_bench"), notes.end())
      << notes.dump();
}

// Error replies are counted from dfly_bench's stdout (its JSON report has no error count): LPOP on
// the string keys of a SET preload is all WRONGTYPE, so the trial fails (no request succeeded)
// and the run exits 1; and a preload Dragonfly refuses fails the engine with one line instead of
// leaving an empty keyspace behind a measured trial.
TEST_F(DragonflyCommandsCliTest, DflyBenchErrorRepliesAreCounted) {
  auto all_errors = RunCli(
      true, {"--command-template", "LPOP __key__", "--preload-template", "SET __key__ __data__"});
  EXPECT_EQ(all_errors.code, 1) << all_errors.err;
  const json out = json::parse(all_errors.out);
  ASSERT_TRUE(out.contains("commands")) << out.dump();
  const json& t = out["commands"][0]["engines"][0]["trials"][0];
  EXPECT_GT(t["errors"].get<uint64_t>(), 0u) << t.dump();
  EXPECT_EQ(t["ops"], 0) << t.dump();
  EXPECT_NE(t.value("failed", "").find("no request succeeded"), std::string::npos) << t.dump();
  EXPECT_NE(
      core::ReadFile(RunDir(out) / "memtier" / "dragonfly-LPOP-t1.txt")->find(" error responses!"),
      std::string::npos);

  auto r = RunCli(
      true, {"--command-template", "GET __key__", "--preload-template", "INCRBY __key__ __data__"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("[dragonfly] preload before trial 1: 1000 error replies to \"INCRBY "
                       "__key__ __data__\""),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(json::parse(r.out)["commands"][0]["engines"][0]["trials"].empty()) << r.out;
}

}  // namespace
}  // namespace dfbench::testing
