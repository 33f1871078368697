// How the load generator reaches a server: TLS (each verification mode, client certificates),
// ACL users, RESP3 (every reply type, out-of-band pushes) and Unix sockets, against real
// redis-server processes. Counts are checked against the server's own.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "loadgen/loadgen.h"
#include "loadgen/run_ok_test_support.h"
#include "support/scoped_temp_dir.h"
#include "support/test_cluster.h"
#include "support/test_server.h"
#include "support/test_tls.h"

namespace dfbench::loadgen {
namespace {

using testing::TestServer;

Config SmallLoad() {
  Config config = QuietRun(2, 2);
  config.pass.requests_per_client = 50;
  return config;
}

// One redis-server with a TLS port beside its plain one, and another that also wants a client
// certificate; the plain ports serve the checks.
class TlsLoad : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::ScopedTempDir("tls-load");
    auto certs = testing::MakeTestCertificates(dir_->path());
    ASSERT_TRUE(certs) << certs.error().message;
    certs_ = new testing::TestCertificates(*certs);
    for (const bool auth_clients : {false, true}) {
      const int tls_port = testing::FreePort();
      auto server = TestServer::StartRedis(testing::RedisTlsArgs(*certs, tls_port, auth_clients));
      ASSERT_TRUE(server) << server.error().message;
      (auth_clients ? mutual_ : server_) = new Served{std::move(*server), tls_port};
    }
  }
  static void TearDownTestSuite() {
    for (Served** s : {&server_, &mutual_}) {
      delete *s;
      *s = nullptr;
    }
    delete certs_;
    delete dir_;
  }

  struct Served {
    TestServer server;
    int tls_port;
  };

  static Config Tls(int port) {
    Config config = SmallLoad();
    config.port = port;
    config.tls.enabled = true;
    config.tls.cacert = certs_->ca_cert.string();
    return config;
  }
  static uint64_t Calls(const Served& s) { return s.server.Calls("set") + s.server.Calls("get"); }

  static testing::ScopedTempDir* dir_;
  static testing::TestCertificates* certs_;
  static Served* server_;
  static Served* mutual_;
};
testing::ScopedTempDir* TlsLoad::dir_ = nullptr;
testing::TestCertificates* TlsLoad::certs_ = nullptr;
TlsLoad::Served* TlsLoad::server_ = nullptr;
TlsLoad::Served* TlsLoad::mutual_ = nullptr;

TEST_F(TlsLoad, VerifiesTheServerAgainstItsCa) {
  ASSERT_NE(server_, nullptr);
  const uint64_t before = Calls(*server_);
  Config config = Tls(server_->tls_port);
  config.tls.sni = "localhost";
  const Report r = RunOk(config);
  EXPECT_EQ(r.totals.count, 2u * 2 * 50);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(Calls(*server_) - before, r.totals.count);
  EXPECT_EQ(r.tls_handshakes, 4u);  // one per connection
  const auto json = nlohmann::json::parse(ReportJson(r, config));
  EXPECT_EQ(json["configuration"]["tls"], "true");
  EXPECT_EQ(json["configuration"]["sni"], "localhost");
  EXPECT_EQ(json["dfbench"]["tls_handshakes"], 4);
}

TEST_F(TlsLoad, ARedissUriSpeaksTls) {
  ASSERT_NE(server_, nullptr);
  // What "--uri rediss://127.0.0.1:PORT" makes of the Config (the uri is read in cli).
  Config config = SmallLoad();
  config.server = "127.0.0.1";
  config.port = server_->tls_port;
  config.tls.enabled = true;
  config.tls.cacert = certs_->ca_cert.string();
  const Report r = RunOk(config);
  EXPECT_EQ(r.totals.count, 2u * 2 * 50);
  EXPECT_EQ(r.tls_handshakes, 4u);
}

TEST_F(TlsLoad, SkipVerifyTakesAnyCertificate) {
  ASSERT_NE(server_, nullptr);
  Config config = Tls(server_->tls_port);
  config.tls.cacert = certs_->other_ca_cert.string();
  config.tls.skip_verify = true;
  EXPECT_EQ(RunOk(config).totals.count, 2u * 2 * 50);
}

TEST_F(TlsLoad, AWrongCaIsRefusedInOneLine) {
  ASSERT_NE(server_, nullptr);
  for (const std::string& ca : {certs_->other_ca_cert.string(), std::string()}) {
    Config config = Tls(server_->tls_port);
    config.tls.cacert = ca;  // "": the system's CAs, which never signed the test CA
    const core::Error e = RunFails(config);
    EXPECT_EQ(e.kind, core::ErrorKind::kEnvironment);
    EXPECT_NE(e.message.find("TLS handshake with 127.0.0.1:" + std::to_string(server_->tls_port) +
                             " failed: certificate verify failed"),
              std::string::npos)
        << e.message;
    EXPECT_EQ(e.message.find('\n'), std::string::npos) << e.message;
  }
}

TEST_F(TlsLoad, ACertificateOrKeyThatDoesNotLoadIsAUsageError) {
  ASSERT_NE(server_, nullptr);
  Config config = Tls(server_->tls_port);
  config.tls.cacert = "/nonexistent/ca.crt";
  core::Error e = RunFails(config);
  EXPECT_EQ(e.kind, core::ErrorKind::kUsage);
  EXPECT_EQ(e.message, "--cacert /nonexistent/ca.crt: no such file");
  // A FIFO is refused at once, never opened for a blocking read.
  const std::string fifo = ::testing::TempDir() + "/dfbench-tls-fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (auto flag : {&protocol::TlsOptions::cacert, &protocol::TlsOptions::cert}) {
    config = Tls(server_->tls_port);
    config.tls.*flag = fifo;
    e = RunFails(config);
    EXPECT_EQ(e.kind, core::ErrorKind::kUsage);
    EXPECT_NE(e.message.find(fifo + ": a FIFO, not a regular file"), std::string::npos)
        << e.message;
  }
  ::unlink(fifo.c_str());
  // Without --key the certificate's file must hold the key: named as --cert, never as --key.
  config = Tls(server_->tls_port);
  config.tls.cert = certs_->client_cert.string();
  e = RunFails(config);
  EXPECT_EQ(e.kind, core::ErrorKind::kUsage);
  EXPECT_TRUE(e.message.starts_with("--cert " + certs_->client_cert.string() +
                                    ": cannot load the certificate's private key"))
      << e.message;
  config = Tls(server_->tls_port);
  config.tls.cert = certs_->client_cert.string();
  config.tls.key = certs_->server_key.string();  // not the certificate's key
  e = RunFails(config);
  EXPECT_EQ(e.kind, core::ErrorKind::kUsage);
  EXPECT_NE(e.message.find("--key"), std::string::npos) << e.message;
}

TEST_F(TlsLoad, AServerThatChecksClientsWantsOurCertificate) {
  ASSERT_NE(mutual_, nullptr);
  Config config = Tls(mutual_->tls_port);
  const core::Error e = RunFails(config);
  EXPECT_EQ(e.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(e.message.find("refused: tlsv13 alert certificate required"), std::string::npos)
      << e.message;
  config.tls.cert = certs_->client_cert.string();
  config.tls.key = certs_->client_key.string();
  const uint64_t before = Calls(*mutual_);
  const Report r = RunOk(config);
  EXPECT_EQ(r.totals.count, 2u * 2 * 50);
  EXPECT_EQ(Calls(*mutual_) - before, r.totals.count);
}

// A Redis Cluster that serves TLS (its bus too): the slot map read over TLS names the nodes'
// TLS ports, and every node's connections speak TLS.
TEST_F(TlsLoad, AClusterOverTlsIsRoutedAcrossItsNodes) {
  ASSERT_NE(certs_, nullptr);
  std::vector<int> tls_ports;
  auto cluster = testing::TestCluster::StartRedis(3, [&](int) {
    tls_ports.push_back(testing::FreePort());
    auto args = testing::RedisTlsArgs(*certs_, tls_ports.back());
    args.insert(args.end(), {"--tls-cluster", "yes"});
    return args;
  });
  ASSERT_TRUE(cluster) << cluster.error().message;
  Config config = Tls(tls_ports[1]);
  config.cluster_mode = true;
  config.load.ratio = {1, 1};
  const Report r = RunOk(config);
  EXPECT_EQ(r.totals.count, 2u * 2 * 50);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.tls_handshakes, 2u * 2 * 3);  // every client to every primary
  uint64_t calls = 0;
  for (size_t i = 0; i < cluster->size(); ++i) {
    calls += cluster->node(i).Calls("set") + cluster->node(i).Calls("get");
  }
  EXPECT_EQ(calls, r.totals.count);
  ASSERT_EQ(r.cluster_nodes.size(), 3u);
  for (const auto& node : r.cluster_nodes) {
    const int port = std::stoi(node.substr(node.rfind(':') + 1));
    EXPECT_NE(std::find(tls_ports.begin(), tls_ports.end(), port), tls_ports.end()) << node;
  }
}

TEST(AclLoad, AUserAuthenticatesAndItsPermissionsHold) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  {
    auto client = server->Client();
    auto reply = client.Command(
        {"ACL", "SETUSER", "bench", "on", ">s3:cret", "~bench:*", "+set", "+get", "+ping"});
    ASSERT_TRUE(reply && !reply->is_error()) << (reply ? reply->str : reply.error().message);
  }
  Config config = SmallLoad();
  config.port = server->port();
  config.load.key_prefix = "bench:";
  config.user = "bench";
  config.password = "s3:cret";  // colon included (how -a and --user read into these: cli's tests)
  const Report r = RunOk(config);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(nlohmann::json::parse(ReportJson(r, config))["configuration"]["authenticate"],
            "bench:(set)");

  // Keys outside the user's pattern are refused: the run above was the user's.
  config.load.key_prefix = "other:";
  EXPECT_EQ(RunOk(config).errors, 2u * 2 * 50);

  config.password = "wrong";
  const core::Error e = RunFails(config);
  EXPECT_EQ(e.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(e.message.find("authentication to 127.0.0.1:" + std::to_string(server->port()) +
                           " failed: WRONGPASS"),
            std::string::npos)
      << e.message;
}

// Commands whose RESP3 replies are a map, a set, a double, a null, a boolean, a big number and
// a verbatim string; a run of them all must count every reply, each once.
TEST(Resp3Load, RepliesOfEveryTypeAreCountedOnce) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  {
    auto client = server->Client();
    for (const std::vector<std::string>& seed :
         {std::vector<std::string>{"HSET", "h", "f", "v", "g", "w"},
          {"SADD", "s", "a", "b"},
          {"ZADD", "z", "1.5", "m"}}) {
      ASSERT_TRUE(client.Command(seed));
    }
  }
  Config config = SmallLoad();
  config.port = server->port();
  config.resp_version = 3;
  config.commands = {{.text = "HGETALL h"},
                     {.text = "SMEMBERS s"},
                     {.text = "ZSCORE z m"},
                     {.text = "GET __key__"},
                     {.text = "EVAL \"return true\" 0"},
                     {.text = "EVAL \"return {big_number='123456789012345678901234567890'}\" 0"},
                     {.text = "LOLWUT"}};
  config.load.pipeline = 4;
  const Report r = RunOk(config);
  EXPECT_EQ(r.errors, 0u) << (r.error_samples.empty() ? "" : r.error_samples[0]);
  EXPECT_EQ(r.unanswered, 0u);
  EXPECT_EQ(r.totals.count, 2u * 2 * 50);
  const uint64_t calls = server->Calls("hgetall") + server->Calls("smembers") +
                         server->Calls("zscore") + server->Calls("get") + server->Calls("eval") +
                         server->Calls("lolwut");
  EXPECT_EQ(calls, r.totals.count);
  EXPECT_EQ(server->Calls("hello"), 1u + 4);  // the preflight's and one per connection
}

// With client-side caching on, the server pushes invalidations between replies: they answer no
// request and are counted apart.
TEST(Resp3Load, PushesBetweenRepliesAreCountedApart) {
  auto server = TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config = SmallLoad();
  config.port = server->port();
  config.resp_version = 3;
  config.load.key_maximum = 5;  // every connection reads and writes the same few keys
  config.commands = {
      {.text = "CLIENT TRACKING ON"}, {.text = "GET __key__"}, {.text = "SET __key__ __data__"}};
  const Report r = RunOk(config);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.unanswered, 0u);
  EXPECT_EQ(r.totals.count, 2u * 2 * 50);
  EXPECT_GT(r.pushes, 0u);
  EXPECT_EQ(server->Calls("get") + server->Calls("set") + server->Calls("client|tracking"),
            r.totals.count);
}

TEST(UnixSocketLoad, RunsOverTheSocketAndRefusesAMissingOne) {
  testing::ScopedTempDir dir("unix-load");
  const std::string socket = (dir.path() / "redis.sock").string();
  auto server = TestServer::StartRedis({"--unixsocket", socket, "--unixsocketperm", "700"});
  ASSERT_TRUE(server) << server.error().message;
  Config config = SmallLoad();
  config.unix_socket = socket;
  const Report r = RunOk(config);
  EXPECT_EQ(r.totals.count, 2u * 2 * 50);
  EXPECT_EQ(server->Calls("set") + server->Calls("get"), r.totals.count);

  config.unix_socket = (dir.path() / "missing.sock").string();
  const core::Error e = RunFails(config);
  EXPECT_EQ(e.kind, core::ErrorKind::kEnvironment);
  EXPECT_NE(e.message.find("cannot connect to unix socket " + config.unix_socket),
            std::string::npos)
      << e.message;
}

}  // namespace
}  // namespace dfbench::loadgen
