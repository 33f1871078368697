// TLS on the client side of a connection (OpenSSL): the settings memtier spells --tls, --cert,
// --key, --cacert, --sni and --tls-skip-verify, one context per run, and a session over a
// non-blocking socket that the load path's event loop and the blocking control client drive.
// A build without OpenSSL (the aarch64 client cross-built without its libssl) says so when
// TLS is asked for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/error.h"

namespace dfbench::protocol {

// TLS versions, as bits of TlsOptions::protocols.
inline constexpr unsigned kTlsV1 = 1U << 0;
inline constexpr unsigned kTlsV1_1 = 1U << 1;
inline constexpr unsigned kTlsV1_2 = 1U << 2;
inline constexpr unsigned kTlsV1_3 = 1U << 3;

struct TlsOptions {
  bool enabled = false;
  std::string cert;    // client certificate chain (PEM), for servers that check clients
  std::string key;     // its private key (PEM); "" = in `cert`'s file
  std::string cacert;  // CA bundle to verify the server with; "" = the system's
  std::string sni;     // server name sent in the handshake; "" = none (as memtier)
  // Off: the server's chain must verify against `cacert` (not its name, as memtier and
  // redis-cli, so certificates made for an address serve too).
  bool skip_verify = false;
  // The versions the handshake may use (kTlsV1 | ...; memtier's --tls-protocols); 0: OpenSSL's
  // defaults.
  unsigned protocols = 0;
};

// Whether this build can speak TLS.
bool TlsAvailable();

// One SSL_CTX with the options loaded; thread-safe to start sessions from once made.
class TlsContext {
 public:
  // kUsage naming the option and file when a certificate, key or CA cannot be loaded, or
  // when this build has no TLS.
  static core::Result<std::shared_ptr<const TlsContext>> Create(const TlsOptions& options);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  const TlsOptions& options() const { return options_; }

 private:
  friend class TlsSession;
  explicit TlsContext(TlsOptions options) : options_(std::move(options)) {}
  TlsOptions options_;
  void* ctx_ = nullptr;  // SSL_CTX
};

// A client session on a connected non-blocking socket (not owned). Every call returns what the
// socket must become before the same call is made again.
class TlsSession {
 public:
  enum class Io : uint8_t {
    kOk,         // done (Handshake), or bytes moved (*n > 0)
    kWantRead,   // call again once the socket is readable
    kWantWrite,  // call again once the socket is writable
    kClosed,     // the server closed the session
    kFailed,     // see error()
  };

  static core::Result<std::unique_ptr<TlsSession>> Start(const TlsContext& context, int fd);
  ~TlsSession();
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  Io Handshake();
  // Reads up to `cap` bytes; kOk with *n > 0, or no bytes and what to wait for.
  Io Read(char* buf, size_t cap, size_t* n);
  // Writes up to `len` bytes (a record at a time); a retry after kWantRead or kWantWrite must
  // pass at least the bytes that were not written (the buffer may have moved).
  Io Write(const char* data, size_t len, size_t* n);
  // Takes in what the server sent after the handshake without consuming application data:
  // in TLS 1.3 its session tickets, or the alert of a server that refused our certificate
  // (which it can only say then). kOk when application data is waiting.
  Io Settle();
  // Whether the session is TLS 1.3, where the server may still refuse after the handshake.
  bool tls13() const;
  // Why the last call failed: OpenSSL's reason, and the certificate check's when that failed.
  const std::string& error() const { return error_; }

 private:
  TlsSession() = default;
  Io Outcome(int rc);
  void* ssl_ = nullptr;  // SSL
  std::string error_;
};

}  // namespace dfbench::protocol
