#include "support/test_tls.h"

#include <tuple>

#include "core/files.h"
#include "core/subprocess.h"

namespace dfbench::testing {
namespace {

namespace fs = std::filesystem;

core::Status Openssl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"openssl"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto out = core::RunCapture(argv);
  if (!out) return tl::unexpected(out.error());
  if (!out->status.ok()) {
    return core::Fail(core::ErrorKind::kEnvironment, "openssl " + args[0] + ": " + out->err);
  }
  return core::Ok();
}

// A P-256 key and a CA-signed certificate for it (`ca` empty: self-signed, a CA itself).
core::Status MakeCertificate(const fs::path& dir, const std::string& name, const std::string& ca,
                             const std::string& extensions) {
  const std::string key = (dir / (name + ".key")).string();
  const std::string cert = (dir / (name + ".crt")).string();
  const std::vector<std::string> new_key = {
      "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", key,  "-subj",    "/CN=dfbench-test-" + name};
  if (ca.empty()) {
    std::vector<std::string> args = {"req", "-x509", "-days", "2", "-out", cert};
    args.insert(args.end(), new_key.begin(), new_key.end());
    return Openssl(args);
  }
  const std::string csr = (dir / (name + ".csr")).string();
  std::vector<std::string> request = {"req", "-out", csr};
  request.insert(request.end(), new_key.begin(), new_key.end());
  if (auto st = Openssl(request); !st) return st;
  const fs::path ext = dir / (name + ".ext");
  if (auto st = core::WriteFileAtomic(ext, extensions + "\n"); !st) return st;
  return Openssl({"x509", "-req", "-in", csr, "-CA", (dir / (ca + ".crt")).string(), "-CAkey",
                  (dir / (ca + ".key")).string(), "-CAcreateserial", "-days", "2", "-out", cert,
                  "-extfile", ext.string()});
}

}  // namespace

core::Result<TestCertificates> MakeTestCertificates(const fs::path& dir) {
  for (const auto& [name, ca, extensions] :
       {std::tuple{"ca", "", ""}, std::tuple{"other-ca", "", ""},
        std::tuple{"server", "ca", "subjectAltName=IP:127.0.0.1,DNS:localhost"},
        std::tuple{"client", "ca", "extendedKeyUsage=clientAuth"}}) {
    if (auto st = MakeCertificate(dir, name, ca, extensions); !st) {
      return tl::unexpected(st.error());
    }
  }
  return TestCertificates{.ca_cert = dir / "ca.crt",
                          .server_cert = dir / "server.crt",
                          .server_key = dir / "server.key",
                          .client_cert = dir / "client.crt",
                          .client_key = dir / "client.key",
                          .other_ca_cert = dir / "other-ca.crt"};
}

std::vector<std::string> RedisTlsArgs(const TestCertificates& certs, int tls_port,
                                      bool auth_clients) {
  return {"--tls-port",         std::to_string(tls_port),
          "--tls-cert-file",    certs.server_cert.string(),
          "--tls-key-file",     certs.server_key.string(),
          "--tls-ca-cert-file", certs.ca_cert.string(),
          "--tls-auth-clients", auth_clients ? "yes" : "no"};
}

}  // namespace dfbench::testing
