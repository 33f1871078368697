// `dfbench sweep` through the built binary: its usage errors and Ctrl+C, against a real
// redis-server. The search itself is tested in src/scenarios (sweep_search_test, sweep_flow_test).
#include <gtest/gtest.h>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/testbed_engines.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

TEST(Sweep, BadFlagsAreOneLineAndExitTwo) {
  DfbenchRunner dfb("sweep-usage");
  ASSERT_EQ(dfb.Run({"setup", "--id", "u1", "--engines", "redis"}).code, 0);
  for (const auto& [flags, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--slo", "p99"}, "--slo \"p99\": expected pPERCENTILE<=LATENCY"},
           {{"--slo", "p99<=1ms", "--slo", "p101<=1ms"}, "--slo \"p101<=1ms\""},
           {{"--slo", "p99<=1ms", "--step-time", "500ms"}, "--step-time \"500ms\""},
           {{"--slo", "p99<=1ms", "--memtier-ratio", "1-2"}, "ratio"},
           {{}, "--slo is required"},
       }) {
    std::vector<std::string> args = {"sweep", "--id", "u1", "--engines", "redis"};
    args.insert(args.end(), flags.begin(), flags.end());
    auto r = dfb.Run(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
  EXPECT_EQ(dfb.State("u1")["status"], "ready");
}

TEST(Sweep, SigintKeepsTheFinishedStepsAndTheSetupReady) {
  DfbenchRunner dfb("sweep-sigint");
  ASSERT_EQ(dfb.Run({"setup", "--id", "s1", "--engines", "redis"}).code, 0);
  auto proc = dfb.Start({"sweep", "--id", "s1", "--engines", "redis", "--slo", "p99<=10s",
                         "--memtier-threads", "1", "--memtier-clients", "2", "--memtier-pipeline",
                         "4", "--step-time", "1s", "--cooldown", "0"});
  // Wait until two steps are in results.json.
  const std::filesystem::path run_dir = dfb.WaitForRunDir(
      "s1", "sweeps",
      [](const std::filesystem::path& run) { return FirstEngineHas(run, "steps", 2); });
  ASSERT_FALSE(run_dir.empty());
  EXPECT_EQ(dfb.State("s1")["status"], "benchmarking");
  ASSERT_NO_FATAL_FAILURE(dfb.Interrupt(&proc));
  EXPECT_EQ(dfb.State("s1")["status"], "ready");
  const json r = json::parse(*core::ReadFile(run_dir / "results.json"));
  EXPECT_EQ(r["scenario"], "sweep");
  EXPECT_EQ(r["status"], "interrupted");
  const json& steps = r["engines"][0]["steps"];
  ASSERT_GE(steps.size(), 2u);
  EXPECT_EQ(steps[0]["phase"], "capacity");
  for (const json& s : steps) {
    EXPECT_TRUE(std::filesystem::exists(run_dir / s["raw_file"].get<std::string>())) << s;
  }
  EXPECT_TRUE(std::filesystem::exists(run_dir / "results.csv"));
  EXPECT_EQ(dfb.State("s1")["benchmarks"][0]["kind"], "sweep");
  EXPECT_EQ(dfb.State("s1")["benchmarks"][0]["status"], "interrupted");
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty())
      << "an engine or load generator was left running";
}

// A sweep of the test beds' Dragonfly, kept to three steps by an objective no engine meets (1 us
// at p99): the closed-loop capacity, then the first rung and its recheck, both failing. Its file
// names Dragonfly's version and tuning, compares with itself and makes a report.
TEST(Sweep, DragonflyStepsThenCompareAndReport) {
  if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
  DfbenchRunner dfb("sweep-dragonfly");
  ASSERT_EQ(dfb.Run({"setup", "--id", "sd", "--engines", "dragonfly", "--dragonfly_binary",
                     DragonflyBinary().string()})
                .code,
            0);
  auto r = dfb.Run(
      Concat({"sweep", "--id", "sd", "--engines", "dragonfly", "--output", "json"}, kSmallSweep));
  ASSERT_EQ(r.code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["scenario"], "sweep");
  EXPECT_EQ(out["status"], "completed");
  ASSERT_EQ(out["engines"].size(), 1u);
  const json& df = out["engines"][0];
  EXPECT_EQ(df["engine"], "dragonfly");
  EXPECT_EQ(df["version"].get<std::string>().rfind("dragonfly v", 0), 0u) << df["version"];
  EXPECT_EQ(df["error"], "");
  EXPECT_EQ(df["tuning"]["proactor_threads"], df["tuning"]["cpus"].size()) << df["tuning"];
  EXPECT_GT(df["capacity"].get<double>(), 0);
  EXPECT_FALSE(df.contains("found_rate") && !df["found_rate"].is_null()) << df;
  const json& steps = df["steps"];
  ASSERT_EQ(steps.size(), 3u) << steps;
  EXPECT_EQ(steps[0]["phase"], "capacity");
  const auto run_dir = dfb.SetupDir("sd") / "sweeps" / out["run_id"].get<std::string>();
  for (size_t i = 0; i < steps.size(); ++i) {
    const json& s = steps[i];
    EXPECT_EQ(s["errors"], 0) << s;
    EXPECT_GT(s["achieved_rate"].get<double>(), 0) << s;
    EXPECT_TRUE(std::filesystem::exists(run_dir / s["raw_file"].get<std::string>())) << s;
    if (i == 0) continue;
    EXPECT_EQ(s["phase"], "ladder") << s;
    EXPECT_EQ(s["passed"], false) << s;
    // The first rule it broke: the objective, or the rate on a machine that stalled.
    EXPECT_FALSE(s["reason"].get<std::string>().empty()) << s;
  }

  const std::string file = (run_dir / "results.json").string();
  r = dfb.Run({"compare", file, file});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("compare sweep results"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dragonfly  max rate in SLO"), std::string::npos) << r.out;
  const auto page = dfb.home() / "sweep.html";
  r = dfb.Run({"report", file, "-o", page.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(core::ReadFile(page).value_or("").find(df["version"].get<std::string>()),
            std::string::npos);
  EXPECT_TRUE(ProcessesMatching(dfb.home().string()).empty());
}

}  // namespace
}  // namespace dfbench::testing
