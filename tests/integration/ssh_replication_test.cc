// `dfbench run-replication` on the netns SSH test bed with a third host as the replica: master
// on the server, load from the client, replica on replica0.
#include <gtest/gtest.h>

#include "core/files.h"
#include "core/subprocess.h"
#include "dfbench_runner.h"
#include "ssh_testbed.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

constexpr const char* kReplica = "10.200.0.4";

// results.json of the setup's latest run (null when there is none).
json LatestResults(const DfbenchRunner& dfb, const std::string& id) {
  const json state = dfb.State(id);
  if (state["benchmarks"].empty()) return nullptr;
  auto text =
      core::ReadFile(dfb.SetupDir(id) / state["benchmarks"].back()["path"].get<std::string>());
  return text ? json::parse(*text) : json(nullptr);
}

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
  const json j = LatestResults(dfb, "rep");
  ASSERT_FALSE(j.is_null());
  ASSERT_EQ(j["cases"].size(), 2u);
  for (const json& c : j["cases"]) {
    EXPECT_EQ(c["termination_reason"], "timeout") << c.dump();
    EXPECT_GT(c["sync_duration_ms"].get<double>(), 0);
    EXPECT_GE(c["series"].size(), 2u);
  }
  r = dfb.Run({"destroy", "--id", "rep", "--yes"});
  EXPECT_EQ(r.code, 0) << r.err;
}

// An engine address that the bed's hosts reach and this machine does not: a second address on
// the server, and a route here that rejects it. Removed again when the test ends.
class HiddenServerAddress {
 public:
  static constexpr const char* kAddress = "10.200.0.102";

  HiddenServerAddress() {
    OnHost(Testbed::kServer, std::string("ip addr add ") + kAddress + "/32 dev eth0");
    auto route = core::RunCapture({"ip", "route", "add", "unreachable", std::string(kAddress)});
    ok_ = route && route->status.ok();
    why_ = route ? route->err : route.error().message;
  }
  ~HiddenServerAddress() {
    (void)core::RunCapture({"ip", "route", "del", "unreachable", std::string(kAddress)});
    OnHost(Testbed::kServer, std::string("ip addr del ") + kAddress + "/32 dev eth0");
  }
  bool ok() const { return ok_; }
  const std::string& why() const { return why_; }

 private:
  bool ok_ = false;
  std::string why_;
};

// Every request dfbench sends the engines itself (readiness, INFO, REPLICAOF, FLUSHALL) goes
// through the SSH connection: the engine address is unreachable from here.
TEST(SshReplication, EngineAddressOnlyTheHostsReach) {
  REQUIRE_TESTBED();
  HiddenServerAddress hidden;
  if (!hidden.ok()) GTEST_SKIP() << "cannot add a rejecting route here: " << hidden.why();
  auto probe = core::RunCapture({"ip", "route", "get", HiddenServerAddress::kAddress});
  ASSERT_TRUE(probe);
  ASSERT_FALSE(probe->status.ok()) << "the hidden address is reachable from here";
  DfbenchRunner dfb("ssh-replication-hidden");
  auto r = dfb.Run({"setup",
                    "--id",
                    "hid",
                    "--provider",
                    "ssh",
                    "--server",
                    Testbed::kServer,
                    "--server-private-ip",
                    HiddenServerAddress::kAddress,
                    "--client",
                    Testbed::kClient,
                    "--replica",
                    kReplica,
                    "--ssh-user",
                    Testbed::kUser,
                    "--ssh-key",
                    Bed().key.string(),
                    "--engines",
                    "redis",
                    "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = dfb.Run({"run-replication", "--id", "hid", "--engines", "redis", "--cases", "qps=1000",
               "--test-time", "2", "--preload-keys", "5_000", "--master-flags",
               "--repl-diskless-sync-delay 0"});
  EXPECT_EQ(r.code, 0) << r.err;
  const json j = LatestResults(dfb, "hid");
  ASSERT_FALSE(j.is_null());
  ASSERT_EQ(j["cases"].size(), 1u);
  EXPECT_EQ(j["cases"][0]["termination_reason"], "timeout") << j["cases"][0].dump();
  EXPECT_GT(j["cases"][0]["sync_duration_ms"].get<double>(), 0);
  r = dfb.Run({"destroy", "--id", "hid", "--yes"});
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
}  // namespace dfbench::testing
