// The TLS of a build made without OpenSSL (the aarch64 client when no aarch64 libssl was
// installed for the cross compiler): every way in says so, so no run pretends to use TLS.
#include "protocol/tls.h"

namespace dfbench::protocol {
namespace {

core::Error Unavailable() {
  return {core::ErrorKind::kUsage,
          "--tls: this build of dfbench has no TLS (OpenSSL was not found when it was built)"};
}

}  // namespace

bool TlsAvailable() {
  return false;
}

core::Result<std::shared_ptr<const TlsContext>> TlsContext::Create(const TlsOptions&) {
  return tl::unexpected(Unavailable());
}

// Never made here: the OpenSSL handles stay null.
TlsContext::~TlsContext() {
  ctx_ = nullptr;
}

core::Result<std::unique_ptr<TlsSession>> TlsSession::Start(const TlsContext&, int) {
  return tl::unexpected(Unavailable());
}

TlsSession::~TlsSession() {
  ssl_ = nullptr;
}

TlsSession::Io TlsSession::Outcome(int) {
  return Io::kFailed;
}
TlsSession::Io TlsSession::Handshake() {
  return Io::kFailed;
}
TlsSession::Io TlsSession::Settle() {
  return Io::kFailed;
}
bool TlsSession::tls13() const {
  return false;
}
TlsSession::Io TlsSession::Read(char*, size_t, size_t*) {
  return Io::kFailed;
}
TlsSession::Io TlsSession::Write(const char*, size_t, size_t*) {
  return Io::kFailed;
}

}  // namespace dfbench::protocol
