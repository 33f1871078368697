// Certificates for TLS tests, made with the openssl command: a CA, a server certificate it
// signed (for 127.0.0.1 and localhost), a client certificate it signed, and a second CA that
// signed neither (the wrong CA). And the redis-server flags that serve TLS with them.
//
//   testing::ScopedTempDir dir("tls");
//   auto certs = testing::MakeTestCertificates(dir.path());
//   auto server = testing::TestServer::StartRedis(testing::RedisTlsArgs(*certs, tls_port));
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"

namespace dfbench::testing {

struct TestCertificates {
  std::filesystem::path ca_cert, server_cert, server_key, client_cert, client_key, other_ca_cert;
};

// Writes the files under `dir`. kEnvironment with openssl's message when it fails.
core::Result<TestCertificates> MakeTestCertificates(const std::filesystem::path& dir);

// A TLS port beside the plain one (which the test server's readiness probe and Client() keep
// using); with `auth_clients`, only clients with a certificate of the CA get in.
std::vector<std::string> RedisTlsArgs(const TestCertificates& certs, int tls_port,
                                      bool auth_clients = false);

}  // namespace dfbench::testing
