// The fairness dispute's three shapes on this machine, end to end: standalone Redis and Dragonfly,
// then a 2-shard Redis Cluster and Dragonfly's emulated cluster mode driven by the cluster-aware
// load generator, and `compare` and `report` of the two result files (the test beds' Dragonfly;
// skipped, saying so, without it).
#include <gtest/gtest.h>
#include <unistd.h>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_data.h"
#include "support/testbed_engines.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The results.json of a run whose stdout was `out`.
fs::path ResultsOf(const DfbenchRunner& dfb, const json& out) {
  return dfb.SetupDir("topo") / "benchmarks" / out["run_id"].get<std::string>() / "results.json";
}

// The nodes the built-in generator's report of `engine`'s first trial names in cluster mode; an
// empty list when it did not run in cluster mode.
json ClusterNodesOf(const fs::path& results, const std::string& engine) {
  const auto report = core::ReadFile(results.parent_path() / "memtier" / (engine + "-t1.json"));
  EXPECT_TRUE(report.has_value()) << engine;
  if (!report) return json::array();
  const json cluster = json::parse(*report)["dfbench"].value("cluster", json::object());
  return cluster.value("nodes", json::array());
}

// Every engine of the file ran without error, and the server counted what the clients sent
// (warmup included), the shards summed.
void ExpectCountsAgree(const json& results) {
  for (const json& engine : results["engines"]) {
    const std::string name = engine["engine"];
    EXPECT_EQ(engine.value("error", ""), "") << name;
    uint64_t client = engine.value("warmup_ops", uint64_t{0});
    for (const json& trial : engine["trials"]) client += trial["ops"].get<uint64_t>();
    EXPECT_EQ(engine["server_ops"].get<uint64_t>(), client) << name;
  }
}

TEST(Topologies, StandaloneAndClusteredEnginesAreComparedAndReportedByName) {
  if (auto why = DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
  DfbenchRunner dfb("topologies-" + std::to_string(getpid()));
  dfb.RunOk({"setup", "--id", "topo", "--engines", "redis,dragonfly", "--dragonfly_binary",
             DragonflyBinary().string()});

  const auto standalone_run = Concat({"run", "--id", "topo", "--engines", "redis,dragonfly",
                                      "--dragonfly_num_shards", "0", "--output", "json"},
                                     kSmallRun);
  const fs::path standalone = ResultsOf(dfb, SucceededJson(dfb.Run(standalone_run)));
  const fs::path clustered = ResultsOf(
      dfb, SucceededJson(dfb.Run(Concat(
               standalone_run, {"--redis_shards", "2", "--dragonfly_cluster_mode", "emulated"}))));

  const json before = json::parse(core::ReadFile(standalone).value_or("{}"));
  const json after = json::parse(core::ReadFile(clustered).value_or("{}"));
  ExpectCountsAgree(before);
  ExpectCountsAgree(after);
  EXPECT_EQ(after["engines"][0]["tuning"]["shards"], 2);
  EXPECT_EQ(after["engines"][1]["tuning"]["cluster_mode"], "emulated");
  // The load followed each cluster's slot map: both Redis shards, Dragonfly's one node.
  EXPECT_EQ(ClusterNodesOf(clustered, "redis").size(), 2u);
  EXPECT_EQ(ClusterNodesOf(clustered, "dragonfly").size(), 1u);
  EXPECT_TRUE(ClusterNodesOf(standalone, "redis").empty());

  // Whatever the numbers say (exit 0 or 1), compare names what changed besides them.
  const auto compared = dfb.Run({"compare", standalone.string(), clustered.string()});
  EXPECT_LE(compared.code, 1) << compared.err;
  ExpectContainsAll(compared.out, {"note: redis topology: one process -> 2 shards",
                                   "note: dragonfly topology: one process -> emulated cluster"});

  const fs::path page = dfb.home() / "topologies.html";
  dfb.RunOk({"report", standalone.string(), clustered.string(), "-o", page.string()});
  ExpectContainsAll(core::ReadFile(page).value_or(""),
                    {"redis (2 shards)", "dragonfly (emulated cluster)"});
  dfb.RunOk({"destroy", "--id", "topo"});
}

}  // namespace
}  // namespace dfbench::testing
