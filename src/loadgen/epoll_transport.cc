#include "loadgen/epoll_transport.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>

#include "core/check.h"

namespace dfbench::loadgen {
namespace {

std::string ErrnoText(int err) {
  return std::strerror(err);
}

Transport::Dialed Failed(std::string why) {
  return {.status = Transport::Dialed::Status::kFailed, .error = std::move(why)};
}

// epoll_pwait2 (a nanosecond timeout) needs Linux 5.11: older kernels (Ubuntu 20.04's 5.4) and
// qemu's user-mode emulation answer ENOSYS, and then get epoll_wait with the timeout rounded
// down to a millisecond, so a request is never sent late; the last millisecond before it is due
// polls instead of sleeping.
int WaitForEvents(int epfd, epoll_event* events, int max_events, const timespec& timeout) {
  static std::atomic<bool> no_pwait2{false};
  if (!no_pwait2.load(std::memory_order_relaxed)) {
    const int n = epoll_pwait2(epfd, events, max_events, &timeout, nullptr);
    if (n >= 0 || errno != ENOSYS) return n;
    no_pwait2.store(true, std::memory_order_relaxed);
  }
  const int64_t ms =
      (static_cast<int64_t>(timeout.tv_sec) * kNsPerSec + timeout.tv_nsec) / kNsPerMs;
  return epoll_wait(epfd, events, max_events, static_cast<int>(std::min<int64_t>(ms, INT_MAX)));
}

}  // namespace

EpollTransport::EpollTransport() : epfd_(epoll_create1(EPOLL_CLOEXEC)) {
  DFB_CHECK(epfd_ >= 0);
}

EpollTransport::~EpollTransport() {
  for (uint32_t id = 0; id < sockets_.size(); ++id) Close(id);
  close(epfd_);
}

Transport::Dialed EpollTransport::Dial(uint32_t id, const Target& target, const StreamKind& kind) {
  if (id >= sockets_.size()) sockets_.resize(id + 1);
  Socket& s = sockets_[id];
  s.fd = socket(target.addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s.fd < 0) return Failed("socket: " + ErrnoText(errno));
  const bool unix_socket = target.addr.ss_family == AF_UNIX;
  if (!unix_socket) {
    int one = 1;
    setsockopt(s.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  }
  // Kernel stamps are TCP's: a Unix socket's reads are timed when they happen.
  s.kind = kind;
  s.kind.stamped = kind.stamped && !unix_socket;
  const int rc = connect(s.fd, reinterpret_cast<const sockaddr*>(&target.addr), target.addr_len);
  const int err = errno;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLOUT | EPOLLET;
  ev.data.u32 = id;
  if (epoll_ctl(epfd_, EPOLL_CTL_ADD, s.fd, &ev) != 0) {
    return Failed("epoll_ctl: " + ErrnoText(errno));
  }
  if (rc == 0) return Open(s);
  if (err != EINPROGRESS && err != EAGAIN) return Failed(ErrnoText(err));
  return {};
}

Transport::Dialed EpollTransport::Connected(uint32_t id, uint32_t events) {
  Socket& s = sockets_[id];
  int err = 0;
  socklen_t len = sizeof(err);
  getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
  if (err != 0) return Failed(ErrnoText(err));
  if (events & (EPOLLOUT | EPOLLIN)) return Open(s);
  return {};
}

Transport::Dialed EpollTransport::Open(Socket& s) {
  auto stream = OpenStream(s.kind, s.fd);
  if (!stream) return Failed(stream.error().message);
  s.stream = std::move(*stream);
  return {.status = Dialed::Status::kUp, .stream = s.stream.get()};
}

void EpollTransport::WatchWrites(uint32_t id, bool want) {
  epoll_event ev{};
  ev.events = want ? EPOLLIN | EPOLLOUT | EPOLLET : EPOLLIN | EPOLLET;
  ev.data.u32 = id;
  epoll_ctl(epfd_, EPOLL_CTL_MOD, sockets_[id].fd, &ev);
}

void EpollTransport::Close(uint32_t id) {
  if (id >= sockets_.size()) return;
  Socket& s = sockets_[id];
  s.stream.reset();
  // Closing the socket also takes it out of the epoll set.
  if (s.fd >= 0) close(s.fd);
  s.fd = -1;
}

int EpollTransport::Wait(int64_t timeout_ns, epoll_event* events, int max_events) {
  const timespec ts{static_cast<time_t>(timeout_ns / kNsPerSec),
                    static_cast<long>(timeout_ns % kNsPerSec)};
  return WaitForEvents(epfd_, events, max_events, ts);
}

void EpollTransport::SleepUntil(int64_t deadline_ns) {
  const timespec ts{static_cast<time_t>(deadline_ns / kNsPerSec),
                    static_cast<long>(deadline_ns % kNsPerSec)};
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
}

}  // namespace dfbench::loadgen
