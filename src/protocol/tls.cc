#include "protocol/tls.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

#include "core/files.h"

namespace dfbench::protocol {
namespace {

SSL_CTX* SslCtxOf(void* p) {
  return static_cast<SSL_CTX*>(p);
}
SSL* SslOf(void* p) {
  return static_cast<SSL*>(p);
}

// OpenSSL's reasons for the calling thread's last failures, oldest first; the queue is left
// empty.
std::string DrainTlsErrors() {
  std::string text;
  while (const unsigned long e = ERR_get_error()) {
    // A system call's failure carries errno, for which OpenSSL 3 has no reason string.
    const char* reason =
        ERR_SYSTEM_ERROR(e) ? std::strerror(ERR_GET_REASON(e)) : ERR_reason_error_string(e);
    if (!text.empty()) text += "; ";
    text += reason != nullptr ? reason : "unknown TLS error";
  }
  return text;
}

core::Status TlsFileRefused(const std::string& flag, const std::string& path,
                            const std::string& what) {
  const std::string why = DrainTlsErrors();
  return core::Fail(core::ErrorKind::kUsage, flag + " " + path + ": cannot load " + what +
                                                 (why.empty() ? "" : " (" + why + ")"));
}

// A PEM file named by a flag, read by the project's regular-file reader: a FIFO, a device or a
// directory is refused at once instead of blocking OpenSSL's open() or read().
core::Result<std::string> PemFile(const std::string& flag, const std::string& path) {
  auto text = core::ReadFile(path);
  if (!text) return core::Fail(core::ErrorKind::kUsage, flag + " " + text.error().message);
  return text;
}

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;
Bio MemoryBio(const std::string& pem) {
  return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
}

// The end of a PEM sequence shows as "no start line": not an error once something was read.
void ForgetEndOfPem() {
  const unsigned long last = ERR_peek_last_error();
  if (ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE) {
    ERR_clear_error();
  }
}

// The certificate and the chain after it, as SSL_CTX_use_certificate_chain_file reads them.
bool UseCertificateChain(SSL_CTX* ctx, const std::string& pem) {
  Bio bio = MemoryBio(pem);
  X509* leaf = PEM_read_bio_X509_AUX(bio.get(), nullptr, nullptr, nullptr);
  if (leaf == nullptr || SSL_CTX_use_certificate(ctx, leaf) != 1) {
    X509_free(leaf);
    return false;
  }
  X509_free(leaf);
  while (X509* ca = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    if (SSL_CTX_add0_chain_cert(ctx, ca) != 1) {
      X509_free(ca);
      return false;
    }
  }
  ForgetEndOfPem();
  return ERR_peek_error() == 0;
}

bool UsePrivateKey(SSL_CTX* ctx, const std::string& pem) {
  Bio bio = MemoryBio(pem);
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr);
  const bool ok = key != nullptr && SSL_CTX_use_PrivateKey(ctx, key) == 1;
  EVP_PKEY_free(key);
  return ok && SSL_CTX_check_private_key(ctx) == 1;
}

// Every certificate of a CA bundle into the context's trust store; false when none is there.
bool TrustBundle(SSL_CTX* ctx, const std::string& pem) {
  Bio bio = MemoryBio(pem);
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  int added = 0;
  while (X509* ca = PEM_read_bio_X509_AUX(bio.get(), nullptr, nullptr, nullptr)) {
    const bool ok = X509_STORE_add_cert(store, ca) == 1;
    X509_free(ca);
    if (!ok) return false;
    ++added;
  }
  ForgetEndOfPem();
  return added > 0 && ERR_peek_error() == 0;
}

// Turns off each version not in `protocols`, as memtier does with its --tls-protocols
// (memtier_benchmark.cpp, main: SSL_OP_NO_TLSv1 ...).
void LimitVersions(SSL_CTX* ctx, unsigned protocols) {
  constexpr std::pair<unsigned, uint64_t> kVersions[] = {{kTlsV1, SSL_OP_NO_TLSv1},
                                                         {kTlsV1_1, SSL_OP_NO_TLSv1_1},
                                                         {kTlsV1_2, SSL_OP_NO_TLSv1_2},
                                                         {kTlsV1_3, SSL_OP_NO_TLSv1_3}};
  for (const auto& [bit, off] : kVersions) {
    if ((protocols & bit) == 0) SSL_CTX_set_options(ctx, off);
  }
}

}  // namespace

bool TlsAvailable() {
  return true;
}

core::Result<std::shared_ptr<const TlsContext>> TlsContext::Create(const TlsOptions& options) {
  std::shared_ptr<TlsContext> context(new TlsContext(options));
  ERR_clear_error();
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == nullptr) {
    return core::Fail(core::ErrorKind::kEnvironment, "TLS: cannot set up: " + DrainTlsErrors());
  }
  context->ctx_ = ctx;
  // The load path's buffer grows and moves while a record waits to be resent.
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  if (!options.cert.empty()) {
    auto cert = PemFile("--cert", options.cert);
    if (!cert) return tl::unexpected(cert.error());
    if (!UseCertificateChain(ctx, *cert)) {
      return tl::unexpected(TlsFileRefused("--cert", options.cert, "the certificate").error());
    }
    // Without --key the certificate's file holds the key too, and is named as --cert.
    const char* key_flag = options.key.empty() ? "--cert" : "--key";
    const std::string& key_path = options.key.empty() ? options.cert : options.key;
    auto key = options.key.empty() ? cert : PemFile(key_flag, key_path);
    if (!key) return tl::unexpected(key.error());
    if (!UsePrivateKey(ctx, *key)) {
      return tl::unexpected(
          TlsFileRefused(key_flag, key_path, "the certificate's private key").error());
    }
  } else if (!options.key.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "--key needs --cert (the certificate it signs)");
  }
  if (!options.cacert.empty()) {
    auto bundle = PemFile("--cacert", options.cacert);
    if (!bundle) return tl::unexpected(bundle.error());
    if (!TrustBundle(ctx, *bundle)) {
      return tl::unexpected(TlsFileRefused("--cacert", options.cacert, "the CA bundle").error());
    }
  } else {
    SSL_CTX_set_default_verify_paths(ctx);
  }
  SSL_CTX_set_verify(ctx, options.skip_verify ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nullptr);
  if (options.protocols != 0) LimitVersions(ctx, options.protocols);
  return std::shared_ptr<const TlsContext>(std::move(context));
}

TlsContext::~TlsContext() {
  SSL_CTX_free(SslCtxOf(ctx_));
}

core::Result<std::unique_ptr<TlsSession>> TlsSession::Start(const TlsContext& context, int fd) {
  std::unique_ptr<TlsSession> session(new TlsSession());
  ERR_clear_error();
  SSL* ssl = SSL_new(SslCtxOf(context.ctx_));
  if (ssl == nullptr) {
    return core::Fail(core::ErrorKind::kEnvironment, "TLS: no session: " + DrainTlsErrors());
  }
  session->ssl_ = ssl;
  const std::string& sni = context.options().sni;
  if (SSL_set_fd(ssl, fd) != 1 ||
      (!sni.empty() && SSL_set_tlsext_host_name(ssl, sni.c_str()) != 1)) {
    return core::Fail(core::ErrorKind::kEnvironment, "TLS: no session: " + DrainTlsErrors());
  }
  SSL_set_connect_state(ssl);
  return session;
}

TlsSession::~TlsSession() {
  SSL_free(SslOf(ssl_));
}

TlsSession::Io TlsSession::Outcome(int rc) {
  switch (SSL_get_error(SslOf(ssl_), rc)) {
    case SSL_ERROR_WANT_READ:
      return Io::kWantRead;
    case SSL_ERROR_WANT_WRITE:
      return Io::kWantWrite;
    case SSL_ERROR_ZERO_RETURN:
      return Io::kClosed;
    case SSL_ERROR_SYSCALL: {
      const int err = errno;
      error_ = DrainTlsErrors();
      if (error_.empty()) error_ = err != 0 ? std::strerror(err) : "connection closed";
      return Io::kFailed;
    }
    default: {
      error_ = DrainTlsErrors();
      const long verify = SSL_get_verify_result(SslOf(ssl_));
      if (verify != X509_V_OK) {
        error_ += std::string(error_.empty() ? "" : ": ") + X509_verify_cert_error_string(verify);
      }
      if (error_.empty()) error_ = "TLS error";
      return Io::kFailed;
    }
  }
}

TlsSession::Io TlsSession::Handshake() {
  ERR_clear_error();
  const int rc = SSL_do_handshake(SslOf(ssl_));
  return rc == 1 ? Io::kOk : Outcome(rc);
}

TlsSession::Io TlsSession::Settle() {
  ERR_clear_error();
  char byte = 0;
  size_t n = 0;
  const int rc = SSL_peek_ex(SslOf(ssl_), &byte, 1, &n);
  return rc == 1 ? Io::kOk : Outcome(rc);
}

bool TlsSession::tls13() const {
  return SSL_version(SslOf(ssl_)) == TLS1_3_VERSION;
}

TlsSession::Io TlsSession::Read(char* buf, size_t cap, size_t* n) {
  ERR_clear_error();
  *n = 0;
  const int rc = SSL_read_ex(SslOf(ssl_), buf, cap, n);
  return rc == 1 ? Io::kOk : Outcome(rc);
}

TlsSession::Io TlsSession::Write(const char* data, size_t len, size_t* n) {
  ERR_clear_error();
  *n = 0;
  const int rc = SSL_write_ex(SslOf(ssl_), data, len, n);
  return rc == 1 ? Io::kOk : Outcome(rc);
}

}  // namespace dfbench::protocol
