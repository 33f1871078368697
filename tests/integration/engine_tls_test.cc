// `--tls`: engines started serving TLS alone, with the setup's own CA and certificates, driven
// by the load generators and reached by dfbench's own requests with its client certificate.
// `--acl-user`: engines that let in only an ACL user made for the run.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/testbed_engines.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

// A small run's flags: 1 thread x 2 clients, trials of 500 requests per connection.
std::vector<std::string> SmallRun(std::vector<std::string> args) {
  args.insert(args.end(),
              {"--memtier-threads", "1", "--memtier-clients", "2", "--memtier-requests", "500",
               "--warmup-requests", "10", "--trials", "1", "--cooldown", "0s", "--output", "json"});
  return args;
}

// Every engine of `out` served TLS, lost no request and agrees with the server's count; the
// raw report says TLS (as memtier writes it, a string) and counts `handshakes`: one per
// connection to each of the engine's processes.
void ExpectServedOverTls(const DfbenchRunner& dfb, const std::string& id, const json& out,
                         uint64_t handshakes = 2) {
  ASSERT_TRUE(out.contains("engines"));
  for (const json& e : out["engines"]) {
    SCOPED_TRACE(e["engine"].get<std::string>());
    EXPECT_EQ(e.value("error", ""), "");
    EXPECT_EQ(e["tuning"]["tls"], true);
    const json& trial = e["trials"][0];
    EXPECT_EQ(trial["errors"], 0u);
    EXPECT_EQ(e["server_ops"], trial["ops"].get<uint64_t>() + e["warmup_ops"].get<uint64_t>());
    auto raw = core::ReadFile(dfb.SetupDir(id) / "benchmarks" / out["run_id"].get<std::string>() /
                              trial["raw_file"].get<std::string>());
    ASSERT_TRUE(raw) << raw.error().message;
    const json report = json::parse(*raw);
    EXPECT_EQ(report["configuration"]["tls"], "true");
    EXPECT_EQ(report["dfbench"]["tls_handshakes"], handshakes);
  }
}

TEST(EngineTls, EveryEngineServesTlsAloneWithTheSetupsCertificates) {
  std::vector<std::string> engines = {"redis"};
  std::vector<std::string> binaries;
  if (ValkeySkipReason().empty()) {
    engines.push_back("valkey");
    binaries.insert(binaries.end(), {"--valkey_binary", ValkeyBinary().string()});
  }
  if (DragonflySkipReason().empty()) {
    engines.push_back("dragonfly");
    binaries.insert(binaries.end(), {"--dragonfly_binary", DragonflyBinary().string()});
  }
  std::string list;
  for (const auto& e : engines) list += (list.empty() ? "" : ",") + e;
  DfbenchRunner dfb("engine-tls");
  std::vector<std::string> setup = {"setup", "--id", "tls", "--engines", list};
  setup.insert(setup.end(), binaries.begin(), binaries.end());
  dfb.RunOk(setup);
  auto run = dfb.Run(
      SmallRun({"run", "--id", "tls", "--engines", list, "--tls", "--dragonfly_num_shards", "0"}));
  const json out = SucceededJson(run);
  EXPECT_EQ(out["engines"].size(), engines.size()) << run.err;
  ExpectServedOverTls(dfb, "tls", out);
  // The setup's certificates, made once and kept; keys for their owner alone.
  const auto tls = dfb.SetupDir("tls") / "tls";
  for (const char* key : {"server.key", "client.key"}) {
    struct stat st {};
    ASSERT_EQ(stat((tls / key).c_str(), &st), 0) << key;
    EXPECT_EQ(st.st_mode & 0777, 0600u) << key;
  }
  EXPECT_TRUE(std::filesystem::exists(tls / "ca.crt"));
}

TEST(EngineTls, AClusterOfShardsFormsAndIsDrivenOverTls) {
  DfbenchRunner dfb("cluster-tls");
  dfb.RunOk({"setup", "--id", "ctls", "--engines", "redis"});
  auto run = dfb.Run(SmallRun({"run", "--id", "ctls", "--engines", "redis", "--tls",
                               "--redis_shards", "3", "--memtier-ratio", "1:1"}));
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("engines")) << run.err;
  EXPECT_EQ(out["engines"][0]["tuning"]["shard_ports"].size(), 3u);
  // The control requests (formation, counts) went over TLS too: a plain one would be refused.
  ExpectServedOverTls(dfb, "ctls", out, /*handshakes=*/2 * 3);
}

TEST(EngineTls, MemtierDrivesTlsEnginesWithTheSetupsClientCertificate) {
  if (!MemtierSkipReason().empty()) GTEST_SKIP() << MemtierSkipReason();
  DfbenchRunner dfb("memtier-tls");
  dfb.RunOk({"setup", "--id", "mtls", "--engines", "redis"});
  auto run = dfb.Run({"run-commands",
                      "--id",
                      "mtls",
                      "--engines",
                      "redis",
                      "--tls",
                      "--command",
                      "GET",
                      "--key-maximum",
                      "200",
                      "--test-time",
                      "1",
                      "--warmup-time",
                      "0",
                      "--trials",
                      "1",
                      "--memtier-threads",
                      "1",
                      "--memtier-clients",
                      "2",
                      "--cooldown",
                      "0s",
                      "--load-generator",
                      "memtier",
                      "--memtier-binary",
                      MemtierBinary().string(),
                      "--output",
                      "json"});
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("commands")) << run.err;
  const json& redis = out["commands"][0]["engines"][0];
  EXPECT_EQ(redis["tuning"]["tls"], true);
  EXPECT_GT(redis["trials"][0]["ops"].get<uint64_t>(), 0u);
  EXPECT_EQ(redis["trials"][0]["errors"], 0u);
  EXPECT_EQ(redis["preloads"][0]["keys"], 200u);
}

TEST(EngineTls, AnEngineWithoutTlsIsRefusedBeforeAnythingStarts) {
  DfbenchRunner dfb("no-tls");
  dfb.RunOk({"setup", "--id", "mc", "--engines", "memcached"});
  auto r = dfb.Run(SmallRun({"run", "--id", "mc", "--engines", "memcached", "--tls"}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(
      r.err.find(
          "memcached has no TLS or ACL users here: those are for dragonfly, redis and valkey"),
      std::string::npos)
      << r.err;
}

TEST(EngineAcl, OnlyTheRunsUserGetsInAndEveryRequestIsAnswered) {
  std::vector<std::string> setup = {"setup", "--id", "acl", "--engines", "redis"};
  std::string list = "redis";
  if (DragonflySkipReason().empty()) {
    setup = {"setup",
             "--id",
             "acl",
             "--engines",
             "redis,dragonfly",
             "--dragonfly_binary",
             DragonflyBinary().string()};
    list = "redis,dragonfly";
  }
  DfbenchRunner dfb("engine-acl");
  dfb.RunOk(setup);
  auto run = dfb.Run(SmallRun({"run", "--id", "acl", "--engines", list, "--acl-user", "--tls",
                               "--dragonfly_num_shards", "0"}));
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("engines")) << run.err;
  ExpectServedOverTls(dfb, "acl", out);
  for (const json& e : out["engines"]) {
    SCOPED_TRACE(e["engine"].get<std::string>());
    EXPECT_EQ(e["tuning"]["acl_user"], "dfbench-run");
    auto raw =
        core::ReadFile(dfb.SetupDir("acl") / "benchmarks" / out["run_id"].get<std::string>() /
                       e["trials"][0]["raw_file"].get<std::string>());
    ASSERT_TRUE(raw);
    // The generator authenticated as the run's user; the password is in no report.
    EXPECT_EQ(json::parse(*raw)["configuration"]["authenticate"], "dfbench-run:(set)");
  }
  auto memtier = dfb.Run(
      {"run", "--id", "acl", "--engines", "redis", "--acl-user", "--load-generator", "memtier"});
  EXPECT_EQ(memtier.code, 2);
  EXPECT_NE(memtier.err.find("password would be on memtier's command line"), std::string::npos)
      << memtier.err;
}

}  // namespace
}  // namespace dfbench::testing
