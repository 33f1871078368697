#include "protocol/tls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstring>

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
    const char* reason = ERR_reason_error_string(e);
    if (!text.empty()) text += "; ";
    text += reason != nullptr ? reason : "error " + std::to_string(e);
  }
  return text;
}

core::Status TlsFileRefused(const std::string& flag, const std::string& path,
                            const std::string& what) {
  const std::string why = DrainTlsErrors();
  return core::Fail(core::ErrorKind::kUsage, flag + " " + path + ": cannot load " + what +
                                                 (why.empty() ? "" : " (" + why + ")"));
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
    if (SSL_CTX_use_certificate_chain_file(ctx, options.cert.c_str()) != 1) {
      return tl::unexpected(TlsFileRefused("--cert", options.cert, "the certificate").error());
    }
    const std::string& key = options.key.empty() ? options.cert : options.key;
    if (SSL_CTX_use_PrivateKey_file(ctx, key.c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1) {
      return tl::unexpected(TlsFileRefused("--key", key, "the certificate's private key").error());
    }
  } else if (!options.key.empty()) {
    return core::Fail(core::ErrorKind::kUsage, "--key needs --cert (the certificate it signs)");
  }
  if (!options.cacert.empty()) {
    if (SSL_CTX_load_verify_locations(ctx, options.cacert.c_str(), nullptr) != 1) {
      return tl::unexpected(TlsFileRefused("--cacert", options.cacert, "the CA bundle").error());
    }
  } else {
    SSL_CTX_set_default_verify_paths(ctx);
  }
  SSL_CTX_set_verify(ctx, options.skip_verify ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nullptr);
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
