// The Dragonfly command line dfbench builds, against the real build of the test beds: each tuning
// docs/providers/ssh.md and docs/commands/run.md document must start it (it exits on a flag it does
// not know), be what the engine reports, and leave it serving, flushable and stoppable with
// SHUTDOWN NOSAVE.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "engines/engine.h"
#include "hosts/local_host.h"
#include "protocol/blocking_client.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/testbed_engines.h"

namespace dfbench::engines {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

struct TuningCase {
  std::string name;
  Tuning tuning;
  int threads = 0;            // thread_count INFO must show; 0: Dragonfly's own choice
  std::optional<int> shards;  // snapshot files per shard SAVE must write; unset: not checked
};

// The combinations of "Tuning on the server" (docs/providers/ssh.md) and `run` flags, on this
// machine's CPUs.
std::vector<TuningCase> Cases() {
  const int cpu = hosts::AllowedCpus().back();
  return {
      {.name = "defaults (Dragonfly sizes itself)", .tuning = {}},
      {.name = "run's defaults on the local provider: pinned, --conn_use_incoming_cpu",
       .tuning = {.dragonfly_num_shards = 0,
                  .dragonfly_conn_use_incoming_cpu = true,
                  .cpus = {cpu}},
       .threads = 1,
       .shards = 1},
      {.name = "unpinned, shards derived from the host's vCPUs",
       .tuning = {.dragonfly_num_shards = -1}},
      {.name = "pinned: --proactor_threads from the pinned CPUs, shards derived",
       .tuning = {.dragonfly_num_shards = -1, .cpus = {cpu}},
       .threads = 1,
       .shards = 1},
      {.name = "explicit --num_shards, --proactor_threads, --conn_use_incoming_cpu",
       .tuning = {.dragonfly_num_shards = 1,
                  .dragonfly_conn_use_incoming_cpu = true,
                  .dragonfly_proactor_threads = 2},
       .threads = 2,
       .shards = 1},
      {.name = "--num_shards 0 (its default) with two proactors",
       .tuning = {.dragonfly_num_shards = 0, .dragonfly_proactor_threads = 2},
       .threads = 2,
       .shards = 2},
  };
}

// Shard files of one SAVE (<file>-NNNN.dfs), after checking its summary file is there.
int ShardFiles(const fs::path& dir, const std::string& file) {
  EXPECT_TRUE(fs::exists(dir / (file + "-summary.dfs"))) << dir;
  int n = 0;
  for (const auto& f : fs::directory_iterator(dir)) {
    const std::string name = f.path().filename().string();
    if (name.rfind(file + "-", 0) == 0 && name.ends_with(".dfs") && name != file + "-summary.dfs") {
      ++n;
    }
  }
  return n;
}

class DragonflyEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = testing::DragonflySkipReason(); !why.empty()) GTEST_SKIP() << why;
    host_ = std::make_unique<hosts::LocalHost>(dir_.path() / "work");
  }

  const testing::ScopedTempDir dir_{"dragonfly"};
  std::unique_ptr<hosts::LocalHost> host_;
};

TEST_F(DragonflyEngineTest, EveryDocumentedTuningStartsServesAndStops) {
  const EngineSpec& df = *FindEngine("dragonfly");
  int n = 0;
  for (TuningCase c : Cases()) {
    SCOPED_TRACE(c.name);
    const fs::path snapshots = dir_.path() / ("snapshots-" + std::to_string(++n));
    fs::create_directories(snapshots);
    const auto snapshot_args = SnapshotArgs(snapshots.string(), "dfbench-t");
    c.tuning.extra_args.insert(c.tuning.extra_args.end(), snapshot_args.begin(),
                               snapshot_args.end());
    const int port = testing::FreePort();
    auto engine = Start(*host_, df, testing::DragonflyBinary().string(), c.tuning,
                        StartOptions{.port = port});
    ASSERT_TRUE(engine) << engine.error().message;
    EXPECT_EQ(engine->version().rfind("dragonfly v", 0), 0u) << engine->version();
    EXPECT_EQ(engine->address(), "127.0.0.1");
    EXPECT_EQ(engine->port(), port);

    auto client = protocol::BlockingClient::Connect(engine->address(), port, milliseconds(2000));
    ASSERT_TRUE(client) << client.error().message;
    auto info = client->Command({"INFO", "server"});
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(protocol::InfoField(info->str, "tcp_port"), std::to_string(port));
    EXPECT_EQ(VersionFromInfo(info->str), engine->version());
    if (c.threads > 0) {
      EXPECT_EQ(protocol::InfoField(info->str, "thread_count"), std::to_string(c.threads));
    }
    // Recorded whether its command line set it or Dragonfly chose it.
    EXPECT_EQ(std::to_string(engine->tuning().value("proactor_threads", 0)),
              protocol::InfoField(info->str, "thread_count"))
        << engine->tuning();
    ASSERT_EQ(client->Command({"SET", "k", "v"})->str, "OK");
    ASSERT_TRUE(engine->Flush());
    EXPECT_EQ(client->Command({"DBSIZE"})->integer, 0);
    // The snapshot flags dfbench passes (--dir, --dbfilename without an extension) are the
    // ones Dragonfly saves by: one file per shard plus a summary.
    auto save = client->Command({"SAVE"});
    ASSERT_TRUE(save) << save.error().message;
    EXPECT_EQ(save->str, "OK");
    const int shard_files = ShardFiles(snapshots, "dfbench-t");
    if (c.shards) {
      EXPECT_EQ(shard_files, *c.shards);
    } else {
      EXPECT_GE(shard_files, 1);
    }

    const int pid = engine->pid();
    ::testing::internal::CaptureStderr();
    EXPECT_TRUE(engine->Stop());
    const std::string notes = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(notes, "") << "SHUTDOWN NOSAVE should have stopped it";
    EXPECT_FALSE(fs::exists("/proc/" + std::to_string(pid)));
  }
}

}  // namespace
}  // namespace dfbench::engines
