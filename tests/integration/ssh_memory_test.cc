// `dfbench run-memory` on the SSH test bed: the engine's process tree is read on the server
// host over SSH, the update traffic comes from the client host; a run killed during its
// snapshot leaves an engine and its BGSAVE child on the server, which the next command stops.
#include <gtest/gtest.h>
#include <signal.h>

#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "protocol/blocking_client.h"
#include "ssh_testbed.h"
#include "support/processes.h"
#include "support/test_data.h"
#include "support/wait_until.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

TEST(SshProvider, RunMemorySamplesTheServersProcessTree) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-memory");
  const std::string id = "mem";
  ASSERT_NO_FATAL_FAILURE(dfb.RunOk(SetupArgs(id, "redis")));
  // 200k keys of 1 KB: the BGSAVE child writes ~200 MB, long enough (a second or more) for the
  // samples read over SSH to see it however busy the machine is; 20k keys' child could exit
  // between two samples.
  auto r =
      dfb.Run({"run-memory", "--id", id, "--engines", "redis", "--keys", "200000", "--test-time",
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

// The leftovers of a run killed with SIGKILL (its engine, the engine's BGSAVE child, the
// snapshot files, all on the server host) are found from what the run recorded and stopped over
// SSH by the next command on the setup.
TEST(SshProvider, NextCommandStopsAKilledRunsEngineAndSnapshotChildOnTheServer) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-leftovers");
  const std::string id = "left";
  ASSERT_NO_FATAL_FAILURE(dfb.RunOk(SetupArgs(id, "redis")));
  const std::string on_server = "redis-server " + std::string(Testbed::kServer);
  core::Process run = dfb.Start({"run-memory", "--id",
                                 id,           "--engines",
                                 "redis",      "--keys",
                                 "2000",       "--value-size",
                                 "100",        "--snapshot-delay",
                                 "1s",         "--update-rate",
                                 "200",        "--memtier-threads",
                                 "1",          "--memtier-clients",
                                 "1",          "--test-time",
                                 "20s",        "--cooldown",
                                 "0s"});
  // The engine (as this machine sees the server's process), slowed to 10 ms a key so that its
  // BGSAVE child writes for 20 s, and the child.
  int engine = 0, bgsave = 0;
  bool slowed = false;
  WaitUntil(
      [&] {
        if (!run.running()) return true;  // too late: the assertions below say so
        if (engine == 0) {
          const auto pids = ProcessesMatching(on_server);
          if (!pids.empty()) engine = pids.front();
        }
        if (engine != 0 && !slowed) {
          if (const int port = RedisPort(engine)) {
            if (auto client = protocol::BlockingClient::Connect(Testbed::kServer, port,
                                                                std::chrono::seconds(2))) {
              auto set = client->Command({"CONFIG", "SET", "rdb-key-save-delay", "10000"});
              slowed = set.has_value() && set->str == "OK";
            }
          }
        }
        if (slowed) {
          const auto children = ChildrenNamed(engine, "redis-server");
          if (!children.empty()) bgsave = children.front();
        }
        return bgsave != 0;
      },
      std::chrono::seconds(120), "the engine's BGSAVE child");
  ASSERT_TRUE(slowed) << "the engine's BGSAVE could not be slowed\n" << dfb.BackgroundErrTail();
  ASSERT_NE(bgsave, 0) << "no BGSAVE child came\n" << dfb.BackgroundErrTail();
  // Killed once the child has a snapshot file under way, which the next command must remove.
  const std::filesystem::path snapshots =
      Bed().base / "server" / "home" / ".dfbench-work" / id / "snapshots";
  ASSERT_TRUE(WaitUntil(
      [&] {
        std::error_code ec;
        for (const auto& e : std::filesystem::recursive_directory_iterator(snapshots, ec)) {
          if (e.is_regular_file(ec)) return true;
        }
        return false;
      },
      std::chrono::seconds(30), "the BGSAVE child's file in " + snapshots.string()));
  run.Signal(SIGKILL);
  ASSERT_TRUE(run.WaitFor(std::chrono::seconds(10)));
  ASSERT_FALSE(core::ProcessGone(bgsave)) << "the child went with dfbench: nothing to clean up";
  EXPECT_EQ(dfb.State(id)["status"], "benchmarking");

  // A tiny run: it starts by stopping what the dead one left, then runs as usual.
  auto r = dfb.Run({"run", "--id", id, "--engines", "redis", "--memtier-requests", "100",
                    "--warmup-requests", "0", "--trials", "1", "--cooldown", "0s",
                    "--memtier-threads", "1", "--memtier-clients", "1"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("died while benchmarking"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stopped process(es)"), std::string::npos) << r.err;
  EXPECT_TRUE(WaitUntil([&] { return core::ProcessGone(bgsave); }, std::chrono::seconds(10),
                        "BGSAVE child " + std::to_string(bgsave) + " to be gone"));
  EXPECT_TRUE(WaitUntil([&] { return core::ProcessGone(engine); }, std::chrono::seconds(10),
                        "engine " + std::to_string(engine) + " to be gone"));
  EXPECT_TRUE(LiveProcesses(on_server).empty());
  EXPECT_TRUE(LiveProcesses(".dfbench-work/" + id + "/").empty());
  // Its snapshot files are gone from the server's work directory.
  std::error_code ec;
  EXPECT_TRUE(std::filesystem::is_empty(snapshots, ec) || ec) << snapshots;
  EXPECT_EQ(dfb.State(id)["status"], "ready");
  EXPECT_EQ(dfb.Run({"destroy", "--id", id, "--yes"}).code, 0);
}

}  // namespace
}  // namespace dfbench::testing
