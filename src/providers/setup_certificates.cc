#include "providers/setup_certificates.h"

#include <arpa/inet.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <chrono>
#include <ctime>
#include <memory>

#include "core/files.h"
#include "core/log.h"

namespace dfbench::providers {
namespace {

namespace fs = std::filesystem;

using Key = std::unique_ptr<EVP_PKEY, void (*)(EVP_PKEY*)>;
using Cert = std::unique_ptr<X509, void (*)(X509*)>;

constexpr long kValiditySec = 10L * 365 * 24 * 3600;

core::Error CertError(const std::string& what) {
  return {core::ErrorKind::kEnvironment, "TLS certificates: cannot " + what};
}

bool IsAddress(const std::string& name) {
  unsigned char buf[16];
  return inet_pton(AF_INET, name.c_str(), buf) == 1 || inet_pton(AF_INET6, name.c_str(), buf) == 1;
}

// One extension in openssl.cnf's syntax ("critical,CA:TRUE"), with `issuer` for the key ids.
bool AddExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext == nullptr) return false;
  const bool added = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return added;
}

// A certificate for `key` named `common_name`, signed by `issuer_key` (self-signed when
// `issuer` is null), with `extensions` (nid, value).
core::Result<Cert> Sign(EVP_PKEY* key, const std::string& common_name, X509* issuer,
                        EVP_PKEY* issuer_key,
                        const std::vector<std::pair<int, std::string>>& extensions) {
  Cert cert(X509_new(), &X509_free);
  unsigned char serial[16];
  if (!cert || RAND_bytes(serial, sizeof(serial)) != 1)
    return tl::unexpected(CertError("start a certificate"));
  serial[0] &= 0x7f;  // a positive serial number
  BIGNUM* bn = BN_bin2bn(serial, sizeof(serial), nullptr);
  const bool ok =
      bn != nullptr && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get())) != nullptr;
  BN_free(bn);
  X509_NAME* name = X509_get_subject_name(cert.get());
  if (!ok || X509_set_version(cert.get(), 2) != 1 ||
      X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) == nullptr ||
      X509_gmtime_adj(X509_getm_notAfter(cert.get()), kValiditySec) == nullptr ||
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>(common_name.c_str()), -1,
                                 -1, 0) != 1 ||
      X509_set_issuer_name(cert.get(), issuer != nullptr ? X509_get_subject_name(issuer) : name) !=
          1 ||
      X509_set_pubkey(cert.get(), key) != 1) {
    return tl::unexpected(CertError("fill the certificate of " + common_name));
  }
  X509* signer = issuer != nullptr ? issuer : cert.get();
  for (const auto& [nid, value] : extensions) {
    if (!AddExtension(cert.get(), signer, nid, value)) {
      return tl::unexpected(CertError("add " + value + " to " + common_name));
    }
  }
  if (X509_sign(cert.get(), issuer_key, EVP_sha256()) == 0) {
    return tl::unexpected(CertError("sign the certificate of " + common_name));
  }
  return cert;
}

core::Status WritePem(const fs::path& path, EVP_PKEY* key, X509* cert) {
  std::unique_ptr<BIO, int (*)(BIO*)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  const bool written =
      bio && (key != nullptr
                  ? PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr)
                  : PEM_write_bio_X509(bio.get(), cert)) == 1;
  if (!written)
    return core::Fail(core::ErrorKind::kEnvironment,
                      "TLS certificates: cannot encode " + path.string());
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return core::WriteFileAtomic(path, std::string(data, static_cast<size_t>(size)),
                               key != nullptr ? 0600 : 0644);
}

// The PEM certificate in `path` (read as every input is: a regular file of bounded size).
Cert ReadCert(const fs::path& path) {
  auto text = core::ReadFile(path);
  if (!text) return {nullptr, &X509_free};
  std::unique_ptr<BIO, int (*)(BIO*)> bio(
      BIO_new_mem_buf(text->data(), static_cast<int>(text->size())), &BIO_free);
  return {bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr, &X509_free};
}

Key ReadKey(const fs::path& path) {
  auto text = core::ReadFile(path);
  if (!text) return {nullptr, &EVP_PKEY_free};
  std::unique_ptr<BIO, int (*)(BIO*)> bio(
      BIO_new_mem_buf(text->data(), static_cast<int>(text->size())), &BIO_free);
  return {bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr,
          &EVP_PKEY_free};
}

// Why the certificates in `files` cannot serve at `now` (unreadable, not yet or no longer
// valid, a key that is not its certificate's, not signed by the CA); "" when they can.
std::string Unusable(const SetupCertificates& files, std::time_t now) {
  const Cert ca = ReadCert(files.ca_cert);
  if (!ca) return files.ca_cert.string() + " is not a PEM certificate";
  EVP_PKEY* ca_public = X509_get0_pubkey(ca.get());
  for (const auto& [cert_path, key_path] : {std::pair{files.server_cert, files.server_key},
                                            std::pair{files.client_cert, files.client_key}}) {
    const Cert cert = ReadCert(cert_path);
    if (!cert) return cert_path.string() + " is not a PEM certificate";
    const Key key = ReadKey(key_path);
    if (!key || X509_check_private_key(cert.get(), key.get()) != 1) {
      return key_path.string() + " is not the key of " + cert_path.filename().string();
    }
    if (ca_public == nullptr || X509_verify(cert.get(), ca_public) != 1) {
      return cert_path.string() + " is not signed by " + files.ca_cert.filename().string();
    }
  }
  for (const fs::path& path : {files.ca_cert, files.server_cert, files.client_cert}) {
    const Cert cert = ReadCert(path);
    if (X509_cmp_time(X509_get0_notBefore(cert.get()), &now) >= 0) {
      return path.string() + " is not valid yet";
    }
    if (X509_cmp_time(X509_get0_notAfter(cert.get()), &now) <= 0) {
      return path.string() + " has expired or expires within a day";
    }
  }
  return "";
}

}  // namespace

core::Result<SetupCertificates> EnsureSetupCertificates(
    const fs::path& dir, const std::vector<std::string>& server_names,
    std::chrono::system_clock::time_point now) {
  using namespace std::chrono_literals;
  const SetupCertificates files{.ca_cert = dir / "ca.crt",
                                .server_cert = dir / "server.crt",
                                .server_key = dir / "server.key",
                                .client_cert = dir / "client.crt",
                                .client_key = dir / "client.key"};
  bool all = true;
  for (const auto& f :
       {files.ca_cert, files.server_cert, files.server_key, files.client_cert, files.client_key}) {
    all = all && fs::exists(f);
  }
  if (all) {
    // A day's margin: a certificate that lapses during the run fails it as surely.
    const std::string why = Unusable(files, std::chrono::system_clock::to_time_t(now + 24h));
    if (why.empty()) return files;
    core::Notef("TLS certificates: {}; making the setup's certificates again", why);
  }
  if (server_names.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "TLS certificates: no server name or address");
  }
  if (auto st = core::MakeDirs(dir); !st) return tl::unexpected(st.error());
  Key ca_key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
  Key server_key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
  Key client_key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
  if (!ca_key || !server_key || !client_key) return tl::unexpected(CertError("generate keys"));
  auto ca = Sign(ca_key.get(), "dfbench setup CA", nullptr, ca_key.get(),
                 {{NID_basic_constraints, "critical,CA:TRUE"},
                  {NID_key_usage, "critical,keyCertSign,cRLSign"},
                  {NID_subject_key_identifier, "hash"}});
  if (!ca) return tl::unexpected(ca.error());
  std::string alt_names;
  for (const auto& name : server_names) {
    alt_names +=
        std::string(alt_names.empty() ? "" : ",") + (IsAddress(name) ? "IP:" : "DNS:") + name;
  }
  auto server = Sign(server_key.get(), server_names.front(), ca->get(), ca_key.get(),
                     {{NID_basic_constraints, "CA:FALSE"},
                      {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                      {NID_ext_key_usage, "serverAuth,clientAuth"},
                      {NID_subject_alt_name, alt_names},
                      {NID_authority_key_identifier, "keyid"}});
  if (!server) return tl::unexpected(server.error());
  auto client = Sign(client_key.get(), "dfbench client", ca->get(), ca_key.get(),
                     {{NID_basic_constraints, "CA:FALSE"},
                      {NID_key_usage, "critical,digitalSignature"},
                      {NID_ext_key_usage, "clientAuth"},
                      {NID_authority_key_identifier, "keyid"}});
  if (!client) return tl::unexpected(client.error());
  for (const auto& [path, key, cert] :
       {std::tuple{files.server_key, server_key.get(), static_cast<X509*>(nullptr)},
        std::tuple{files.client_key, client_key.get(), static_cast<X509*>(nullptr)},
        std::tuple{files.server_cert, static_cast<EVP_PKEY*>(nullptr), server->get()},
        std::tuple{files.client_cert, static_cast<EVP_PKEY*>(nullptr), client->get()},
        std::tuple{files.ca_cert, static_cast<EVP_PKEY*>(nullptr), ca->get()}}) {
    if (auto st = WritePem(path, key, cert); !st) return tl::unexpected(st.error());
  }
  return files;
}

}  // namespace dfbench::providers
