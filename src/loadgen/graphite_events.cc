#include "loadgen/graphite_events.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "loadgen/clock.h"
#include "loadgen/ipv4_address.h"

namespace dfbench::loadgen {
namespace {

// Waits for `events` on `fd` until `deadline_ns` (monotonic); false on timeout or error.
bool WaitForSocket(int fd, short events, int64_t deadline_ns) {
  while (true) {
    const int64_t left_ms = (deadline_ns - NowNs()) / 1'000'000;
    if (left_ms <= 0) return false;
    pollfd p{.fd = fd, .events = events, .revents = 0};
    const int rc = poll(&p, 1, static_cast<int>(left_ms));
    if (rc > 0) return (p.revents & events) != 0;
    if (rc == 0 || errno != EINTR) return false;
  }
}

}  // namespace

std::string GraphiteEventRequest(const std::string& host, int port, const std::string& what,
                                 const std::string& data, const std::string& tags,
                                 const std::string& run_label) {
  const std::string json = "{\"what\":\"" + what + "\",\"tags\":\"" + tags + ",run:" + run_label +
                           "\",\"data\":\"" + data + "\"}";
  return "POST /events/ HTTP/1.1\r\nHost: " + host + ":" + std::to_string(port) +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(json.size()) +
         "\r\nConnection: close\r\n\r\n" + json;
}

void GraphiteEvents::Post(const std::string& what, const std::string& data,
                          const std::string& tags) {
  if (down_) return;
  std::string why;
  if (Send(GraphiteEventRequest(host_, port_, what, data, tags, run_label_), &why)) return;
  down_ = true;
  std::fprintf(stderr, "dfbench: warning: graphite events to %s:%d not sent: %s\n", host_.c_str(),
               port_, why.c_str());
}

bool GraphiteEvents::Send(const std::string& request, std::string* why) const {
  auto address = ResolveIpv4(host_, port_);
  if (!address) {
    *why = address.error().message;
    return false;
  }
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *why = std::strerror(errno);
    return false;
  }
  const int64_t deadline_ns = NowNs() + std::chrono::nanoseconds(kDeadline).count();
  int error = 0;
  if (connect(fd, reinterpret_cast<const sockaddr*>(&*address), sizeof(*address)) != 0) {
    if (errno != EINPROGRESS) {
      error = errno;
    } else if (!WaitForSocket(fd, POLLOUT, deadline_ns)) {
      error = ETIMEDOUT;
    } else {
      socklen_t size = sizeof(error);
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size);
    }
  }
  for (size_t done = 0; error == 0 && done < request.size();) {
    const ssize_t n = send(fd, request.data() + done, request.size() - done, MSG_NOSIGNAL);
    if (n >= 0) {
      done += static_cast<size_t>(n);
    } else if (errno != EAGAIN) {
      error = errno;
    } else if (!WaitForSocket(fd, POLLOUT, deadline_ns)) {
      error = ETIMEDOUT;
    }
  }
  close(fd);
  if (error != 0) *why = std::strerror(error);
  return error == 0;
}

}  // namespace dfbench::loadgen
