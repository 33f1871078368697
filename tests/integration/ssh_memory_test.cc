// `dfbench run-memory` on the SSH test bed: the engine's process tree is read on the server
// host over SSH, the update traffic comes from the client host.
#include <gtest/gtest.h>

#include "dfbench_runner.h"
#include "ssh_testbed.h"
#include "support/processes.h"
#include "support/test_data.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

TEST(SshProvider, RunMemorySamplesTheServersProcessTree) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-memory");
  const std::string id = "mem";
  auto r = dfb.Run({"setup", "--id", id, "--provider", "ssh", "--server", Testbed::kServer,
                    "--client", Testbed::kClient, "--ssh-user", Testbed::kUser, "--ssh-key",
                    Bed().key.string(), "--engines", "redis", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 200k keys of 1 KB: the BGSAVE child writes ~200 MB, long enough (a second or more) for the
  // samples read over SSH to see it however busy the machine is; 20k keys' child could exit
  // between two samples.
  r = dfb.Run({"run-memory", "--id", id, "--engines", "redis", "--keys", "200000", "--test-time",
               "4s", "--snapshot-delay", "1s", "--update-rate", "1000", "--output", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["status"], "completed");
  EXPECT_EQ(out["context"]["provider"], "ssh");
  ASSERT_EQ(out["engines"].size(), 1u);
  ASSERT_EQ(out["engines"][0]["trials"].size(), 1u);
  const json& t = out["engines"][0]["trials"][0];
  EXPECT_EQ(t["keys"], 200000);
  EXPECT_GT(t["bytes_per_key"].get<double>(), 1024);
  EXPECT_EQ(t["snapshot_status"], "ok") << t["snapshot_error"];
  EXPECT_FALSE(t["memory"].empty());
  EXPECT_FALSE(t["load"].empty());
  int most_processes = 0;
  for (const json& s : t["memory"]) {
    most_processes = std::max(most_processes, s["processes"].get<int>());
  }
  EXPECT_GE(most_processes, 2);  // the BGSAVE child, read on the server
  // The snapshot directory is gone from the server, and nothing of the run is left running.
  EXPECT_FALSE(
      std::filesystem::exists(Bed().base / "server" / "home" / ".dfbench-work" / id / "snapshots" /
                              (out["run_id"].get<std::string>() + "-redis-t1")));
  EXPECT_TRUE(LiveProcesses(".dfbench-work/" + id + "/").empty());
  EXPECT_TRUE(LiveProcesses("redis-server 10.200.0.").empty());
  EXPECT_EQ(dfb.Run({"destroy", "--id", id, "--yes"}).code, 0);
}

}  // namespace
}  // namespace dfbench::testing
