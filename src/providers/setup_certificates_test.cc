// The setup's certificates proven the way engines use them: a real redis-server serving TLS
// with them, which checks clients, and clients verifying it against the setup's CA.
#include "providers/setup_certificates.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "core/files.h"
#include "protocol/blocking_client.h"
#include "protocol/tls.h"
#include "support/scoped_temp_dir.h"
#include "support/test_server.h"

namespace dfbench::providers {
namespace {

using testing::TestServer;

TEST(SetupCertificates, ARedisServerServesThemAndKnowsOurClient) {
  testing::ScopedTempDir dir("setup-certs");
  auto certs = EnsureSetupCertificates(dir / "tls", {"127.0.0.1", "localhost"});
  ASSERT_TRUE(certs) << certs.error().message;
  struct stat st {};
  ASSERT_EQ(stat(certs->server_key.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  const int tls_port = testing::FreePort();
  auto server = TestServer::StartRedis({"--tls-port", std::to_string(tls_port), "--tls-cert-file",
                                        certs->server_cert.string(), "--tls-key-file",
                                        certs->server_key.string(), "--tls-ca-cert-file",
                                        certs->ca_cert.string(), "--tls-auth-clients", "yes"});
  ASSERT_TRUE(server) << server.error().message;

  protocol::TlsOptions options{.enabled = true,
                               .cert = certs->client_cert.string(),
                               .key = certs->client_key.string(),
                               .cacert = certs->ca_cert.string()};
  auto context = protocol::TlsContext::Create(options);
  ASSERT_TRUE(context) << context.error().message;
  auto client = protocol::BlockingClient::Connect("127.0.0.1", tls_port, std::chrono::seconds(5),
                                                  context->get());
  ASSERT_TRUE(client) << client.error().message;
  auto pong = client->Command({"PING"});
  ASSERT_TRUE(pong) << pong.error().message;
  EXPECT_EQ(pong->str, "PONG");

  // Without the client certificate the server refuses.
  options.cert.clear();
  options.key.clear();
  auto anonymous = protocol::TlsContext::Create(options);
  ASSERT_TRUE(anonymous);
  EXPECT_FALSE(protocol::BlockingClient::Connect("127.0.0.1", tls_port, std::chrono::seconds(5),
                                                 anonymous->get()));
}

TEST(SetupCertificates, MadeOnceThenKept) {
  testing::ScopedTempDir dir("setup-certs-kept");
  auto first = EnsureSetupCertificates(dir.path(), {"10.0.0.5"});
  ASSERT_TRUE(first) << first.error().message;
  const auto ca = core::ReadFile(first->ca_cert);
  ASSERT_TRUE(ca);
  auto again = EnsureSetupCertificates(dir.path(), {"10.0.0.5"});
  ASSERT_TRUE(again);
  EXPECT_EQ(core::ReadFile(again->ca_cert).value_or(""), *ca);
  EXPECT_EQ(EnsureSetupCertificates(dir / "none", {}).error().kind, core::ErrorKind::kUsage);
}

// Certificates that could not serve are made again at once, rather than found out by a server
// that will not start or clients that cannot connect: expired, within a day of expiring,
// unreadable, a key that is not its certificate's, a certificate another CA signed.
TEST(SetupCertificates, WhatCannotServeIsMadeAgain) {
  using std::chrono::system_clock;
  testing::ScopedTempDir dir("setup-certs-again");
  const auto made = EnsureSetupCertificates(dir.path(), {"10.0.0.5"});
  ASSERT_TRUE(made) << made.error().message;
  std::string ca = core::ReadFile(made->ca_cert).value_or("");
  auto renewed = [&](system_clock::time_point now) {
    auto again = EnsureSetupCertificates(dir.path(), {"10.0.0.5"}, now);
    EXPECT_TRUE(again) << again.error().message;
    std::string now_ca = core::ReadFile(made->ca_cert).value_or("");
    const bool changed = now_ca != ca;
    ca = now_ca;
    return changed;
  };
  const auto ten_years = std::chrono::hours(24 * 365 * 10);
  EXPECT_FALSE(renewed(system_clock::now() + ten_years - std::chrono::hours(48)));
  EXPECT_TRUE(renewed(system_clock::now() + ten_years - std::chrono::hours(12)));
  EXPECT_TRUE(renewed(system_clock::now() + ten_years + std::chrono::hours(24 * 365)));
  EXPECT_FALSE(renewed(system_clock::now()));

  ASSERT_TRUE(core::WriteFileAtomic(made->server_cert, "not a certificate\n"));
  EXPECT_TRUE(renewed(system_clock::now()));
  ASSERT_TRUE(
      core::WriteFileAtomic(made->server_key, core::ReadFile(made->client_key).value_or(""), 0600));
  EXPECT_TRUE(renewed(system_clock::now()));
  // A server certificate of another setup's CA.
  testing::ScopedTempDir other("setup-certs-other");
  const auto foreign = EnsureSetupCertificates(other.path(), {"10.0.0.5"});
  ASSERT_TRUE(foreign);
  ASSERT_TRUE(
      core::WriteFileAtomic(made->server_cert, core::ReadFile(foreign->server_cert).value_or("")));
  ASSERT_TRUE(core::WriteFileAtomic(made->server_key,
                                    core::ReadFile(foreign->server_key).value_or(""), 0600));
  EXPECT_TRUE(renewed(system_clock::now()));
  EXPECT_FALSE(renewed(system_clock::now()));
}

}  // namespace
}  // namespace dfbench::providers
