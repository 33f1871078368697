// A run from two client hosts on the netns SSH test bed (server, client, client2): the load
// split between them, their measured parts started together against their measured clocks, the
// histograms merged exactly, the server's count their sum.
#include <gtest/gtest.h>

#include <optional>

#include "core/files.h"
#include "core/hdr_histogram.h"
#include "dfbench_runner.h"
#include "drivers/generator_report.h"
#include "ssh_testbed.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

constexpr const char* kClient2 = "10.200.0.4";

TEST(SshClients, TwoClientHostsMergeTheirHistogramsExactly) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-clients");
  std::vector<std::string> setup = SetupArgs("two", "redis");
  setup.insert(setup.end(), {"--client", kClient2});
  auto r = dfb.Run(setup);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("Uploading dfbench to the clients"), std::string::npos) << r.err;
  const json st = dfb.State("two");
  ASSERT_EQ(st["hosts"].size(), 3u);
  EXPECT_EQ(st["hosts"][2]["role"], "client-2");
  // The second client is no replica: the settings name none.
  EXPECT_EQ(st["settings"]["replicas"], json::array()) << st["settings"];

  r = dfb.Run({"run",      "--id",
               "two",      "--engines",
               "redis",    "--memtier-threads",
               "2",        "--memtier-clients",
               "5",        "--memtier-requests",
               "2000",     "--memtier-pipeline",
               "10",       "--warmup-requests",
               "100",      "--trials",
               "2",        "--cooldown",
               "0",        "--per-client",
               "--output", "table"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("load generators:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("client-2"), std::string::npos) << r.out;
  const json run_record = dfb.State("two")["benchmarks"].back();
  const auto results_path = dfb.SetupDir("two") / run_record["path"].get<std::string>();
  const json results = json::parse(*core::ReadFile(results_path));
  const json& redis = results["engines"][0];
  uint64_t client_ops = redis["warmup_ops"].get<uint64_t>();
  for (const json& trial : redis["trials"]) {
    ASSERT_EQ(trial["clients"].size(), 2u) << trial;
    EXPECT_EQ(trial["clients"][0]["name"], "client");
    EXPECT_EQ(trial["clients"][1]["name"], "client-2");
    // Each host's part of the 2 x 5 x 2000 requests, and the merged percentiles recomputed
    // from the two raw histograms.
    std::optional<core::HdrHistogram> all;
    double latest_start = 0;
    for (const json& part : trial["clients"]) {
      EXPECT_EQ(part["ops"], 10000);
      latest_start = std::max(latest_start, part["start_offset_ms"].get<double>());
      const auto text = core::ReadFile(results_path.parent_path() / "memtier" /
                                       part["raw_file"].get<std::string>());
      ASSERT_TRUE(text) << part;
      auto report = drivers::ParseGeneratorReport(*text);
      ASSERT_TRUE(report && report->histogram) << part;
      if (!all) {
        all = *report->histogram;
      } else {
        ASSERT_TRUE(all->Merge(*report->histogram));
      }
    }
    EXPECT_EQ(trial["p50"].get<double>(), static_cast<double>(all->ValueAtPercentile(50)) / 1e6);
    EXPECT_EQ(trial["p99"].get<double>(), static_cast<double>(all->ValueAtPercentile(99)) / 1e6);
    EXPECT_EQ(trial["p999"].get<double>(), static_cast<double>(all->ValueAtPercentile(99.9)) / 1e6);
    EXPECT_EQ(trial.value("start_skew_ms", 0.0), latest_start) << trial;
    client_ops += trial["ops"].get<uint64_t>() + trial["errors"].get<uint64_t>();
  }
  EXPECT_EQ(client_ops, 41000u);  // warmup 2 x 5 x 100, two trials of 2 x 5 x 2000
  EXPECT_EQ(redis["server_ops"].get<uint64_t>(), client_ops);

  r = dfb.Run({"destroy", "--id", "two", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(OnHost(kClient2, "ls ~/.dfbench-work/two 2>/dev/null | wc -l"), "0\n");
}

}  // namespace
}  // namespace dfbench::testing
