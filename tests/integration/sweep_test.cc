// `dfbench sweep` through the built binary: its usage errors and Ctrl+C, against a real
// redis-server. The search itself is tested in src/scenarios (sweep_search_test, sweep_flow_test).
#include <gtest/gtest.h>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"

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

}  // namespace
}  // namespace dfbench::testing
