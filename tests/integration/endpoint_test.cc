// `--provider endpoint`: servers dfbench does not run, met by URL over TLS with an ACL user.
// redis-server is started by the test, as a managed service would be by someone else: dfbench
// must never start, stop or flush it unless allowed, must leave no key of its own behind, and
// must write the password into no file.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>

#include "core/files.h"
#include "dfbench_runner.h"
#include "support/test_cluster.h"
#include "support/test_server.h"
#include "support/test_tls.h"

namespace dfbench::testing {
namespace {

using nlohmann::json;

constexpr const char* kPassword = "s3:cret=pw";  // a colon and an '=' in it, as real ones have
constexpr const char* kPasswordInUrl = "s3%3Acret%3Dpw";
constexpr const char* kPasswordEnv = "DFBENCH_ENDPOINT_PASSWORD";

// The files under `dir` whose bytes contain `secret`.
std::vector<std::string> FilesHolding(const std::filesystem::path& dir, const std::string& secret) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    if (bytes.str().find(secret) != std::string::npos) found.push_back(entry.path().string());
  }
  return found;
}

// Sets an environment variable for the scope (the dfbench children inherit it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

int64_t KeysOf(const TestServer& server) {
  auto reply = server.Client().Command({"DBSIZE"});
  return reply ? reply->integer : -1;
}

class EndpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto certs = MakeTestCertificates(certs_dir_.path());
    ASSERT_TRUE(certs) << certs.error().message;
    certs_ = *certs;
    tls_port_ = FreePort();
    auto args = RedisTlsArgs(certs_, tls_port_);
    // Managed services rename what they do not let users run; FLUSHALL here.
    args.insert(args.end(), {"--rename-command", "FLUSHALL", "flushall-renamed"});
    auto server = TestServer::StartRedis(args);
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    auto client = server_->Client();
    auto user = client.Command(
        {"ACL", "SETUSER", "bench", "on", std::string(">") + kPassword, "~*", "&*", "+@all"});
    ASSERT_TRUE(user && !user->is_error()) << (user ? user->str : user.error().message);
    // Someone else's data, which no run may touch.
    ASSERT_TRUE(client.Command({"SET", "theirs", "1"}));
  }

  std::string Url(const std::string& credentials) const {
    return "redis=rediss://" + credentials + "@127.0.0.1:" + std::to_string(tls_port_);
  }

  ScopedTempDir certs_dir_{"endpoint-certs"};
  TestCertificates certs_;
  int tls_port_ = 0;
  std::optional<TestServer> server_;
};

const std::vector<std::string> kSmallRun = {"--engines",         "redis", "--memtier-threads", "1",
                                            "--memtier-clients", "2",     "--cooldown",        "0s",
                                            "--output",          "json"};

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST_F(EndpointTest, RunRunCommandsAndSweepLeaveNoKeyAndNoPasswordBehind) {
  DfbenchRunner dfb("endpoint");
  auto setup =
      dfb.Run({"setup", "--id", "ep", "--endpoint", Url(std::string("bench:") + kPasswordInUrl),
               "--cacert", certs_.ca_cert.string()});
  ASSERT_EQ(setup.code, 0) << setup.err;
  EXPECT_NE(setup.err.find(std::string("later commands read it from $") + kPasswordEnv),
            std::string::npos)
      << setup.err;
  const json state = dfb.State("ep");
  EXPECT_EQ(state["provider"], "endpoint");
  const json& recorded = state["provider_data"]["endpoints"]["redis"];
  EXPECT_EQ(recorded["url"], "rediss://bench@127.0.0.1:" + std::to_string(tls_port_));
  EXPECT_EQ(recorded["password_env"], kPasswordEnv);
  EXPECT_EQ(recorded["allow_flush"], false);
  EXPECT_EQ(state["engines"][0]["origin"], "endpoint");

  // A later command without the password says where it reads it from.
  const std::vector<std::string> run = With({"run", "--id", "ep", "--memtier-requests", "300",
                                             "--warmup-requests", "10", "--trials", "2"},
                                            kSmallRun);
  auto refused = dfb.Run(run);
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find(std::string("set ") + kPasswordEnv), std::string::npos) << refused.err;

  ScopedEnv password(kPasswordEnv, kPassword);
  const uint64_t sets_before = server_->Calls("set");
  auto measured = dfb.Run(run);
  const json out = SucceededJson(measured);
  ASSERT_TRUE(out.contains("engines")) << measured.err;
  const json& redis = out["engines"][0];
  EXPECT_EQ(redis["origin"], "endpoint");
  EXPECT_EQ(redis["tuning"]["endpoint"], recorded["url"]);
  EXPECT_EQ(redis["tuning"]["unavailable_commands"], json::array({"FLUSHALL"}));
  const std::string key_namespace = redis["tuning"]["key_namespace"];
  EXPECT_EQ(key_namespace.rfind("dfbench:ep:", 0), 0u) << key_namespace;
  uint64_t ops = redis["warmup_ops"].get<uint64_t>();
  for (const json& t : redis["trials"]) {
    EXPECT_EQ(t["ops"], 600u);  // 1 thread x 2 clients x 300
    EXPECT_EQ(t["errors"], 0u);
    ops += t["ops"].get<uint64_t>();
  }
  // The server counted this run's requests alone (what it had counted before is subtracted).
  EXPECT_EQ(redis["server_ops"], ops);
  EXPECT_GT(server_->Calls("set"), sets_before);
  EXPECT_EQ(KeysOf(*server_), 1) << "the run's keys must be gone, the other key kept";

  // run-commands: preloads and a mutating command, each trial's keys under the namespace.
  auto commands = dfb.Run(With({"run-commands", "--id", "ep", "--command", "LPOP", "--key-maximum",
                                "200", "--test-time", "1", "--warmup-time", "0", "--trials", "2"},
                               kSmallRun));
  const json commands_out = SucceededJson(commands);
  ASSERT_TRUE(commands_out.contains("commands")) << commands.err;
  const json& lpop = commands_out["commands"][0]["engines"][0];
  ASSERT_EQ(lpop["preloads"].size(), 2u);
  EXPECT_EQ(lpop["preloads"][0]["keys"], 200u);  // the run's keys alone, not the server's
  EXPECT_EQ(KeysOf(*server_), 1);

  auto sweep = dfb.Run(With({"sweep", "--id", "ep", "--slo", "p99<=200ms", "--step-time", "1s",
                             "--confirm", "0", "--key-maximum", "500"},
                            kSmallRun),
                       std::chrono::minutes(5));
  const json sweep_out = SucceededJson(sweep);
  ASSERT_TRUE(sweep_out.contains("engines")) << sweep.err;
  EXPECT_FALSE(sweep_out["engines"][0]["steps"].empty());
  EXPECT_EQ(KeysOf(*server_), 1);
  EXPECT_EQ(server_->Client().Command({"GET", "theirs"})->str, "1");

  for (const auto* out_text : {&measured, &commands, &sweep}) {
    EXPECT_EQ(out_text->out.find(kPassword), std::string::npos);
    EXPECT_EQ(out_text->err.find(kPassword), std::string::npos);
  }
  EXPECT_EQ(FilesHolding(dfb.home(), kPassword), std::vector<std::string>{});
  EXPECT_EQ(FilesHolding(dfb.home(), kPasswordInUrl), std::vector<std::string>{});
}

TEST_F(EndpointTest, AllowFlushEmptiesTheServerAndReadsThePasswordFromAFile) {
  // FLUSHALL under its real name for this one.
  server_.reset();
  auto server = TestServer::StartRedis(RedisTlsArgs(certs_, tls_port_));
  ASSERT_TRUE(server) << server.error().message;
  server_.emplace(std::move(*server));
  auto client = server_->Client();
  ASSERT_TRUE(client.Command(
      {"ACL", "SETUSER", "bench", "on", std::string(">") + kPassword, "~*", "&*", "+@all"}));
  ASSERT_TRUE(client.Command({"SET", "theirs", "1"}));

  DfbenchRunner dfb("endpoint-flush");
  const std::filesystem::path password_file = certs_dir_.path() / "password";
  ASSERT_TRUE(core::WriteFileAtomic(password_file, std::string(kPassword) + "\n"));
  dfb.RunOk({"setup", "--id", "flush", "--endpoint", Url("bench"), "--password-file",
             password_file.string(), "--cacert", certs_.ca_cert.string(), "--allow-flush"});
  EXPECT_EQ(dfb.State("flush")["provider_data"]["endpoints"]["redis"]["password_file"],
            password_file.string());
  auto run = dfb.Run(With({"run", "--id", "flush", "--memtier-requests", "200", "--warmup-requests",
                           "0", "--trials", "1"},
                          kSmallRun));
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("engines")) << run.err;
  EXPECT_FALSE(out["engines"][0]["tuning"].contains("key_namespace"));
  EXPECT_EQ(out["engines"][0]["server_ops"], 400u);
  // Flushed before the run, and the run's own keys (memtier-*) kept, as on an engine dfbench
  // starts.
  EXPECT_EQ(server_->Client().Command({"EXISTS", "theirs"})->integer, 0);
  EXPECT_GT(KeysOf(*server_), 0);

  // run-commands flushes before each preload: a preload's keys are the server's.
  ASSERT_TRUE(server_->Client().Command({"SET", "theirs", "1"}));
  auto commands =
      dfb.Run(With({"run-commands", "--id", "flush", "--command", "GET", "--key-maximum", "150",
                    "--test-time", "1", "--warmup-time", "0", "--trials", "1"},
                   kSmallRun));
  const json commands_out = SucceededJson(commands);
  ASSERT_TRUE(commands_out.contains("commands")) << commands.err;
  EXPECT_EQ(commands_out["commands"][0]["engines"][0]["preloads"][0]["keys"], 150u);
  EXPECT_EQ(KeysOf(*server_), 150);

  auto sweep = dfb.Run(With({"sweep", "--id", "flush", "--slo", "p99<=200ms", "--step-time", "1s",
                             "--confirm", "0", "--key-maximum", "100"},
                            kSmallRun),
                       std::chrono::minutes(5));
  const json sweep_out = SucceededJson(sweep);
  ASSERT_TRUE(sweep_out.contains("engines")) << sweep.err;
  EXPECT_FALSE(sweep_out["engines"][0]["steps"].empty());
  EXPECT_EQ(FilesHolding(dfb.home(), kPassword), std::vector<std::string>{});
}

int64_t KeysIn(protocol::BlockingClient& client, int db) {
  auto selected = client.Command({"SELECT", std::to_string(db)});
  EXPECT_TRUE(selected && !selected->is_error());
  auto reply = client.Command({"DBSIZE"});
  return reply ? reply->integer : -1;
}

// "redis://:PASS@host:port/5": the default user's password, and database 5 for every
// connection, the load generator's and dfbench's own; the other databases are not touched.
TEST(EndpointDatabase, TheUrlsDatabaseGetsTheRunAndNothingElseIsTouched) {
  constexpr const char* kServerPassword = "S3cr3tPa55";
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  auto client = server->Client();
  ASSERT_TRUE(client.Command({"CONFIG", "SET", "requirepass", kServerPassword}));
  ASSERT_TRUE(client.Command({"SET", "theirs", "1"}));  // database 0: someone else's
  const std::string url = "redis://127.0.0.1:" + std::to_string(server->port()) + "/5";

  DfbenchRunner dfb("endpoint-db");
  // A password after ':' is a password: given twice, it is refused, and never shown.
  ScopedEnv other(kPasswordEnv, kServerPassword);
  auto twice = dfb.Run({"setup", "--id", "twice", "--endpoint",
                        "redis=redis://:" + std::string(kServerPassword) +
                            "@127.0.0.1:" + std::to_string(server->port()),
                        "--password-env", kPasswordEnv});
  EXPECT_EQ(twice.code, 2) << twice.err;
  EXPECT_EQ(twice.err.find(kServerPassword), std::string::npos) << twice.err;

  auto setup = dfb.Run({"setup", "--id", "db", "--endpoint",
                        "redis=redis://:" + std::string(kServerPassword) +
                            "@127.0.0.1:" + std::to_string(server->port()) + "/5",
                        "--allow-flush"});
  ASSERT_EQ(setup.code, 0) << setup.err;
  EXPECT_EQ(dfb.State("db")["provider_data"]["endpoints"]["redis"]["url"], url);
  auto run = dfb.Run(With(
      {"run", "--id", "db", "--memtier-requests", "100", "--warmup-requests", "0", "--trials", "1"},
      kSmallRun));
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("engines")) << run.err;
  EXPECT_EQ(out["engines"][0]["tuning"]["endpoint"], url);
  EXPECT_GT(KeysIn(client, 5), 0);
  EXPECT_EQ(KeysIn(client, 0), 1) << "database 0 holds its one key, and none of the run's";
  for (const auto* text : {&setup.out, &setup.err, &run.out, &run.err}) {
    EXPECT_EQ(text->find(kServerPassword), std::string::npos) << *text;
  }
  EXPECT_EQ(FilesHolding(dfb.home(), kServerPassword), std::vector<std::string>{});
  // The server was never asked for a user named like the password.
  auto log = client.Command({"ACL", "LOG"});
  ASSERT_TRUE(log);
  for (const auto& entry : log->elements) {
    for (const auto& field : entry.elements) {
      EXPECT_EQ(field.str.find(kServerPassword), std::string::npos);
    }
  }
}

// A password the server no longer takes is the environment's fault, on every command that meets
// the endpoint: exit 5, one line, the password never shown.
TEST(EndpointPassword, APasswordTheServerRefusesExits5OnEveryCommand) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  auto client = server->Client();
  ASSERT_TRUE(client.Command({"CONFIG", "SET", "requirepass", "first-pw"}));
  DfbenchRunner dfb("endpoint-password");
  ScopedEnv password(kPasswordEnv, "first-pw");
  dfb.RunOk({"setup", "--id", "pw", "--endpoint",
             "redis=redis://127.0.0.1:" + std::to_string(server->port()), "--password-env",
             kPasswordEnv});
  ASSERT_TRUE(client.Command({"AUTH", "first-pw"}));
  ASSERT_TRUE(client.Command({"CONFIG", "SET", "requirepass", "second-pw"}));
  const std::vector<std::vector<std::string>> commands = {
      With({"run", "--id", "pw", "--memtier-requests", "100", "--trials", "1"}, kSmallRun),
      With({"run-commands", "--id", "pw", "--command", "SET", "--test-time", "1", "--trials", "1"},
           kSmallRun),
      With({"sweep", "--id", "pw", "--slo", "p99<=1s"}, kSmallRun),
      {"loadgen", "-u", "redis://:first-pw@127.0.0.1:" + std::to_string(server->port()), "-n",
       "10"}};
  for (const auto& args : commands) {
    const CliResult r = dfb.Run(args);
    EXPECT_EQ(r.code, 5) << args[0] << "\n" << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << args[0] << "\n" << r.err;
    EXPECT_NE(r.err.find("WRONGPASS"), std::string::npos) << args[0] << "\n" << r.err;
    EXPECT_EQ(r.err.find("first-pw"), std::string::npos) << r.err;
  }
}

// A dry run meets each endpoint as setup does (read-only) and refuses what setup refuses, with
// setup's exit code, leaving no file behind.
TEST(EndpointDryRun, RefusesWhatSetupRefusesAndCreatesNothing) {
  constexpr const char* kServerPassword = "dry-run-pw";
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  ASSERT_TRUE(server->Client().Command({"CONFIG", "SET", "requirepass", kServerPassword}));
  const std::string at = "@127.0.0.1:" + std::to_string(server->port());
  DfbenchRunner dfb("endpoint-dry-run");
  const std::vector<std::pair<std::string, int>> cases = {
      {"redis=http://127.0.0.1:" + std::to_string(server->port()), 2},
      {"redis=redis://nowhere.invalid:6379", 5},
      {"redis=redis://:wrong" + at, 5},
      {"redis=redis://:" + std::string(kServerPassword) + at + "/99999", 5},
      {"memcached=redis://:" + std::string(kServerPassword) + at, 2},
      {"redis=redis://:" + std::string(kServerPassword) + at + "/5", 0}};
  for (const auto& [endpoint, code] : cases) {
    const std::vector<std::string> args = {"setup", "--id", "dry", "--endpoint", endpoint};
    auto dry = dfb.Run(With(args, {"--dry-run"}));
    auto real = dfb.Run(With(args, {"--yes"}));
    EXPECT_EQ(dry.code, code) << endpoint << "\n" << dry.err;
    EXPECT_EQ(real.code, code) << endpoint << "\n" << real.err;
    if (code != 0) {
      // The same refusal, word for word.
      EXPECT_EQ(dry.err.substr(dry.err.rfind("dfbench: ")),
                real.err.substr(real.err.rfind("dfbench: ")));
    }
    EXPECT_EQ(dry.err.find(kServerPassword), std::string::npos) << dry.err;
  }
  // The last case made the setup: a dry run of its id is refused as setup would refuse it.
  auto taken = dfb.Run({"setup", "--id", "dry", "--endpoint", cases.back().first, "--dry-run"});
  EXPECT_EQ(taken.code, 2) << taken.err;
  EXPECT_NE(taken.err.find("setup \"dry\" already exists (status ready)"), std::string::npos)
      << taken.err;
  // A dry run of a new id leaves no directory behind.
  dfb.RunOk({"setup", "--id", "fresh", "--endpoint", cases.back().first, "--dry-run"});
  EXPECT_FALSE(std::filesystem::exists(dfb.SetupDir("fresh")));
}

TEST_F(EndpointTest, AClusterOverTlsIsDrivenAcrossItsPrimariesAndLeftClean) {
  std::vector<int> tls_ports;
  auto cluster = TestCluster::StartRedis(3, [&](int) {
    tls_ports.push_back(FreePort());
    auto args = RedisTlsArgs(certs_, tls_ports.back());
    args.insert(args.end(), {"--tls-cluster", "yes"});
    return args;
  });
  ASSERT_TRUE(cluster) << cluster.error().message;
  DfbenchRunner dfb("endpoint-cluster");
  dfb.RunOk({"setup", "--id", "cl", "--endpoint",
             "rediss://127.0.0.1:" + std::to_string(tls_ports[1]), "--cacert",
             certs_.ca_cert.string()});
  auto run = dfb.Run(With({"run", "--id", "cl", "--memtier-requests", "300", "--warmup-requests",
                           "0", "--trials", "1", "--memtier-ratio", "1:1"},
                          kSmallRun));
  const json out = SucceededJson(run);
  ASSERT_TRUE(out.contains("engines")) << run.err;
  const json& redis = out["engines"][0];
  EXPECT_EQ(redis["engine"], "redis");  // named by its INFO
  ASSERT_EQ(redis["tuning"]["cluster_nodes"].size(), 3u);
  EXPECT_EQ(redis["tuning"]["cluster_nodes"][0], "127.0.0.1:" + std::to_string(tls_ports[1]));
  EXPECT_EQ(redis["trials"][0]["errors"], 0u);
  EXPECT_EQ(redis["server_ops"], redis["trials"][0]["ops"]);
  for (size_t i = 0; i < cluster->size(); ++i) {
    EXPECT_GT(cluster->node(i).Calls("set"), 0u) << "node " << i;
    EXPECT_EQ(KeysOf(cluster->node(i)), 0) << "node " << i;
  }
}

TEST_F(EndpointTest, WhatCannotBeMetIsRefusedInOneLine) {
  DfbenchRunner dfb("endpoint-refusals");
  auto no_ca = dfb.Run({"setup", "--id", "a", "--endpoint", Url("bench")});
  EXPECT_EQ(no_ca.code, 5);
  EXPECT_NE(no_ca.err.find("certificate verify failed"), std::string::npos) << no_ca.err;

  auto wrong = dfb.Run(
      {"setup", "--id", "b", "--endpoint", Url("bench:nope"), "--cacert", certs_.ca_cert.string()});
  EXPECT_EQ(wrong.code, 5);
  EXPECT_NE(wrong.err.find("refused the credentials of user bench: WRONGPASS"), std::string::npos)
      << wrong.err;

  auto local = dfb.Run({"setup", "--id", "c", "--provider", "local", "--endpoint", Url("bench")});
  EXPECT_EQ(local.code, 2);
  EXPECT_NE(local.err.find("--endpoint is for servers dfbench does not run"), std::string::npos)
      << local.err;

  ScopedEnv password(kPasswordEnv, kPassword);
  dfb.RunOk({"setup", "--id", "d", "--endpoint", Url(std::string("bench:") + kPasswordInUrl),
             "--cacert", certs_.ca_cert.string()});
  auto memory = dfb.Run({"run-memory", "--id", "d", "--engines", "redis"});
  EXPECT_EQ(memory.code, 2);
  EXPECT_NE(memory.err.find("run-memory starts and restarts its engines"), std::string::npos)
      << memory.err;
  auto tls = dfb.Run(With({"run", "--id", "d", "--tls"}, kSmallRun));
  EXPECT_EQ(tls.code, 2);
  EXPECT_NE(tls.err.find("when their URL says rediss://"), std::string::npos) << tls.err;
  auto acl = dfb.Run(With({"run", "--id", "d", "--acl-user"}, kSmallRun));
  EXPECT_EQ(acl.code, 2);
  EXPECT_NE(acl.err.find("an endpoint's users are its own"), std::string::npos) << acl.err;
  for (const auto& flag : std::vector<std::vector<std::string>>{{"--redis_shards", "2"},
                                                                {"--redis_io_threads", "4"}}) {
    auto shaped = dfb.Run(With(With({"run", "--id", "d"}, flag), kSmallRun));
    EXPECT_EQ(shaped.code, 2);
    EXPECT_NE(shaped.err.find(flag[0] + " shapes how dfbench starts redis; the endpoint runs as "
                                        "its owner started it"),
              std::string::npos)
        << shaped.err;
  }
  // The password would be on memtier_benchmark's command line: refused before anything starts.
  auto memtier = dfb.Run(With({"run", "--id", "d", "--load-generator", "memtier"}, kSmallRun));
  EXPECT_EQ(memtier.code, 2) << memtier.err;
  EXPECT_EQ(CountLines(memtier.err), 1) << memtier.err;
  EXPECT_NE(memtier.err.find("wants a password, which would be on memtier's command line"),
            std::string::npos)
      << memtier.err;
  EXPECT_EQ(memtier.err.find(kPassword), std::string::npos) << memtier.err;
  auto version = dfb.Run(With({"run", "--id", "d", "--redis_version", "7.2.4"}, kSmallRun));
  EXPECT_EQ(version.code, 2);
  EXPECT_NE(version.err.find("installs nothing there"), std::string::npos) << version.err;

  // An empty password variable is a usage error, not a password the server refuses.
  ::setenv(kPasswordEnv, "", 1);
  auto empty = dfb.Run(With({"run", "--id", "d"}, kSmallRun));
  ::setenv(kPasswordEnv, kPassword, 1);
  EXPECT_EQ(empty.code, 2) << empty.err;
  EXPECT_NE(empty.err.find(std::string("set ") + kPasswordEnv + " (it is empty;"),
            std::string::npos)
      << empty.err;

  // An engine named against what the server says is recorded as named, with a warning.
  const std::string as_valkey = "valkey=" + Url(std::string("bench:") + kPasswordInUrl).substr(6);
  auto named =
      dfb.Run({"setup", "--id", "f", "--endpoint", as_valkey, "--cacert", certs_.ca_cert.string()});
  EXPECT_EQ(named.code, 0) << named.err;
  EXPECT_NE(
      named.err.find("the server's INFO says it is redis; it is recorded as valkey, as named"),
      std::string::npos)
      << named.err;

  // TLS files for a server named without TLS would be ignored: refused.
  auto plain = dfb.Run({"setup", "--id", "e", "--endpoint", "redis://127.0.0.1:1", "--cacert",
                        certs_.ca_cert.string()});
  EXPECT_EQ(plain.code, 2);
  EXPECT_EQ(plain.err,
            "dfbench: --cacert applies to rediss:// endpoints, and every --endpoint here is "
            "redis:// (no TLS)\n");
}

}  // namespace
}  // namespace dfbench::testing
