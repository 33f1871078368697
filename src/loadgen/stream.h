// The byte stream of one connection, chosen once when its socket connects: plain reads and
// writes, reads that carry the kernel's receive time (SO_TIMESTAMPNS), or a TLS session. Every
// call answers one Io, so the worker's I/O sites are one switch each, whatever the transport.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/error.h"
#include "protocol/tls.h"

namespace dfbench::loadgen {

struct Io {
  enum class Status : uint8_t {
    kOk,          // `bytes` moved (> 0), or the handshake is done
    kWouldBlock,  // nothing now: the next readable event calls again
    kWantWrite,   // nothing now: call again once the socket is writable
    kClosed,      // the server closed the connection
    kFailed,      // Stream::error() says why
  };
  Status status = Status::kOk;
  size_t bytes = 0;
  // A read on a stream that stamps: the kernel's receive time of the last byte read
  // (CLOCK_REALTIME nanoseconds); 0 when there is none.
  int64_t stamp_ns = 0;
};

class Stream {
 public:
  virtual ~Stream() = default;
  // Whether Handshake() must be driven to kOk before requests go out.
  virtual bool NeedsHandshake() const { return false; }
  virtual Io Handshake() { return {}; }
  virtual Io Read(char* buf, size_t cap) = 0;
  // A retry after kWouldBlock or kWantWrite passes at least the bytes not yet written.
  virtual Io Write(const char* data, size_t len) = 0;
  // Whether reads carry the kernel's receive time, so a reply may wait in the socket buffer
  // without its latency growing.
  virtual bool Stamped() const { return false; }
  // Whether the stream keeps bytes of its own beyond the socket's (a TLS session's records):
  // then any event may let a read or a pending write go on, and a short read does not mean
  // the socket is drained.
  virtual bool Buffers() const { return false; }
  // Why the last call answered kFailed.
  const std::string& error() const { return error_; }

 protected:
  std::string error_;
};

// What a connection's stream is: chosen once per worker from its configuration.
struct StreamKind {
  const protocol::TlsContext* tls = nullptr;  // set: a TLS session over the socket
  bool stamped = false;                       // plain TCP with SO_TIMESTAMPNS set on the socket
};

// The stream of `kind` over the connected non-blocking socket `fd` (not owned). kEnvironment
// when a TLS session cannot start.
core::Result<std::unique_ptr<Stream>> OpenStream(const StreamKind& kind, int fd);

}  // namespace dfbench::loadgen
