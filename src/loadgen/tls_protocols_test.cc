// memtier's --tls-protocols: the handshake offers only the versions asked for, checked against a
// redis-server that speaks TLS 1.3 alone.
#include <gtest/gtest.h>

#include <vector>

#include "loadgen/run_ok_test_support.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"
#include "support/test_tls.h"

namespace dfbench::loadgen {
namespace {

TEST(TlsProtocols, TheHandshakeUsesOnlyTheVersionsAskedFor) {
  testing::ScopedTempDir dir("tls-protocols");
  auto certs = testing::MakeTestCertificates(dir.path());
  ASSERT_TRUE(certs) << certs.error().message;
  const int tls_port = testing::FreePort();
  std::vector<std::string> args = testing::RedisTlsArgs(*certs, tls_port);
  args.insert(args.end(), {"--tls-protocols", "TLSv1.3"});
  auto server = testing::TestServer::StartRedis(args);
  ASSERT_TRUE(server) << server.error().message;
  Config config = QuietRun(1, 2);
  config.port = tls_port;
  config.pass.requests_per_client = 20;
  config.tls.enabled = true;
  config.tls.cacert = certs->ca_cert.string();
  config.tls.protocols = protocol::kTlsV1_3;
  EXPECT_EQ(RunOk(config).totals.count, 40u);
  config.tls.protocols = protocol::kTlsV1_2;
  const core::Error error = RunFails(config);
  EXPECT_EQ(error.kind, core::ErrorKind::kEnvironment) << error.message;
  EXPECT_EQ(server->Calls("set") + server->Calls("get"), 40u);
}

}  // namespace
}  // namespace dfbench::loadgen
