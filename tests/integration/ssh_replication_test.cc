// `dfbench run-replication` on the netns SSH test bed with a third host as the replica: master
// on the server, load from the client, replica on replica0.
#include <gtest/gtest.h>

#include "core/files.h"
#include "dfbench_runner.h"
#include "ssh_testbed.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

constexpr const char* kReplica = "10.200.0.4";

TEST(SshReplication, MasterOnTheServerReplicaOnItsOwnHost) {
  REQUIRE_TESTBED();
  DfbenchRunner dfb("ssh-replication");
  auto r =
      dfb.Run({"setup", "--id", "rep", "--provider", "ssh", "--server", Testbed::kServer,
               "--client", Testbed::kClient, "--replica", kReplica, "--ssh-user", Testbed::kUser,
               "--ssh-key", Bed().key.string(), "--engines", "redis", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = dfb.Run({"run-replication", "--id", "rep", "--engines", "redis", "--cases",
               "qps=1000,maxload", "--test-time", "2", "--preload-keys", "20_000", "--master-flags",
               "--repl-diskless-sync-delay 0"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("starting the replica on replica-0 (root@10.200.0.4)"), std::string::npos)
      << r.err;
  const json state = dfb.State("rep");
  ASSERT_FALSE(state["benchmarks"].empty());
  auto text =
      core::ReadFile(dfb.SetupDir("rep") / state["benchmarks"].back()["path"].get<std::string>());
  ASSERT_TRUE(text);
  const json j = json::parse(*text);
  ASSERT_EQ(j["cases"].size(), 2u);
  for (const json& c : j["cases"]) {
    EXPECT_EQ(c["termination_reason"], "timeout") << c.dump();
    EXPECT_GT(c["sync_duration_ms"].get<double>(), 0);
    EXPECT_GE(c["series"].size(), 2u);
  }
  r = dfb.Run({"destroy", "--id", "rep", "--yes"});
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
}  // namespace dfbench::testing
