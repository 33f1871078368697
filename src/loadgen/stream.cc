#include "loadgen/stream.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "loadgen/clock.h"

namespace dfbench::loadgen {
namespace {

using Status = Io::Status;

// The answer for a read or write that moved nothing and set errno (n < 0) or met the end of
// the stream (n == 0, reads only).
Io Unmoved(ssize_t n, std::string* error) {
  if (n == 0) return {.status = Status::kClosed};
  if (errno == EAGAIN || errno == EWOULDBLOCK) return {.status = Status::kWouldBlock};
  *error = std::strerror(errno);
  return {.status = Status::kFailed};
}

// Writes with send(): a full socket buffer asks for the writable event.
Io SendSome(int fd, const char* data, size_t len, std::string* error) {
  while (true) {
    const ssize_t n = send(fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) return {.bytes = static_cast<size_t>(n)};
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return {.status = Status::kWantWrite};
    if (n == 0) errno = EPIPE;  // send() of a non-empty buffer does not return 0
    *error = std::strerror(errno);
    return {.status = Status::kFailed};
  }
}

class PlainStream : public Stream {
 public:
  explicit PlainStream(int fd) : fd_(fd) {}
  Io Read(char* buf, size_t cap) override {
    while (true) {
      const ssize_t n = read(fd_, buf, cap);
      if (n > 0) return {.bytes = static_cast<size_t>(n)};
      if (n < 0 && errno == EINTR) continue;
      return Unmoved(n, &error_);
    }
  }
  Io Write(const char* data, size_t len) override { return SendSome(fd_, data, len, &error_); }

 private:
  int fd_;
};

// recvmsg() with the kernel's receive timestamp of the last byte read (TCP stamps each
// segment; the read returns the latest).
class StampedStream : public Stream {
 public:
  explicit StampedStream(int fd) : fd_(fd) {}
  bool Stamped() const override { return true; }
  Io Read(char* buf, size_t cap) override {
    iovec iov{buf, cap};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    while (true) {
      msg.msg_control = control;
      msg.msg_controllen = sizeof(control);
      const ssize_t n = recvmsg(fd_, &msg, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Unmoved(n, &error_);
      Io io{.bytes = static_cast<size_t>(n)};
      for (cmsghdr* cm = CMSG_FIRSTHDR(&msg); cm != nullptr; cm = CMSG_NXTHDR(&msg, cm)) {
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS) {
          timespec ts;
          std::memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
          io.stamp_ns = static_cast<int64_t>(ts.tv_sec) * kNsPerSec + ts.tv_nsec;
        }
      }
      return io;
    }
  }
  Io Write(const char* data, size_t len) override { return SendSome(fd_, data, len, &error_); }

 private:
  int fd_;
};

class TlsStream : public Stream {
 public:
  explicit TlsStream(std::unique_ptr<protocol::TlsSession> session)
      : session_(std::move(session)) {}
  bool NeedsHandshake() const override { return true; }
  bool Buffers() const override { return true; }
  Io Handshake() override { return Moved(session_->Handshake(), 0, "TLS handshake failed: "); }
  Io Read(char* buf, size_t cap) override {
    size_t n = 0;
    const auto io = session_->Read(buf, cap, &n);  // before `n` is read
    return Moved(io, n, "TLS: ");
  }
  Io Write(const char* data, size_t len) override {
    size_t n = 0;
    const auto io = session_->Write(data, len, &n);  // before `n` is read
    return Moved(io, n, "TLS: ");
  }

 private:
  // `io` as a stream answers it; a failure's error() starts with `context`.
  Io Moved(protocol::TlsSession::Io io, size_t n, const char* context) {
    switch (io) {
      case protocol::TlsSession::Io::kOk:
        return {.bytes = n};
      case protocol::TlsSession::Io::kWantRead:
        return {.status = Status::kWouldBlock};
      case protocol::TlsSession::Io::kWantWrite:
        return {.status = Status::kWantWrite};
      case protocol::TlsSession::Io::kClosed:
        return {.status = Status::kClosed};
      case protocol::TlsSession::Io::kFailed:
        break;
    }
    error_ = context + session_->error();
    return {.status = Status::kFailed};
  }
  std::unique_ptr<protocol::TlsSession> session_;
};

}  // namespace

core::Result<std::unique_ptr<Stream>> OpenStream(const StreamKind& kind, int fd) {
  if (kind.tls != nullptr) {
    auto session = protocol::TlsSession::Start(*kind.tls, fd);
    if (!session) return tl::unexpected(session.error());
    return std::unique_ptr<Stream>(std::make_unique<TlsStream>(std::move(*session)));
  }
  int one = 1;
  if (kind.stamped && setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) == 0) {
    return std::unique_ptr<Stream>(std::make_unique<StampedStream>(fd));
  }
  return std::unique_ptr<Stream>(std::make_unique<PlainStream>(fd));
}

}  // namespace dfbench::loadgen
