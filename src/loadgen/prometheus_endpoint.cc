#include "loadgen/prometheus_endpoint.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "loadgen/clock.h"

namespace dfbench::loadgen {
namespace {

constexpr int64_t kScrapeDeadlineNs = 5 * kNsPerSec;
constexpr size_t kMaxRequestBytes = 8192;

std::string HttpResponse(const char* status, const std::string& type, const std::string& body) {
  return std::string("HTTP/1.1 ") + status + "\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
         body;
}

}  // namespace

std::string PrometheusResponse(const std::string& request, const std::string& metrics_body) {
  const bool metrics = request.starts_with("GET /metrics ") || request.starts_with("GET /metrics?");
  if (!metrics) return HttpResponse("404 Not Found", "text/plain", "not found; try /metrics\n");
  return HttpResponse("200 OK", "text/plain; version=0.0.4; charset=utf-8", metrics_body);
}

core::Result<std::unique_ptr<PrometheusEndpoint>> PrometheusEndpoint::Listen(
    const std::string& bind, int port) {
  const std::string where = bind + ":" + std::to_string(port);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, bind.c_str(), &address.sin_addr) != 1) {
    return core::Fail(core::ErrorKind::kUsage,
                      "--prometheus-bind: '" + bind + "' is not an IPv4 address");
  }
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      std::string("prometheus endpoint: ") + std::strerror(errno));
  }
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
      listen(fd, 16) != 0) {
    const int error = errno;
    close(fd);
    return core::Fail(core::ErrorKind::kEnvironment, "prometheus endpoint: cannot listen on " +
                                                         where + ": " + std::strerror(error));
  }
  return std::unique_ptr<PrometheusEndpoint>(new PrometheusEndpoint(fd));
}

PrometheusEndpoint::~PrometheusEndpoint() {
  for (const Scrape& s : scrapes_) close(s.fd);
  close(listen_fd_);
}

int PrometheusEndpoint::port() const {
  sockaddr_in address{};
  socklen_t size = sizeof(address);
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &size);
  return ntohs(address.sin_port);
}

void PrometheusEndpoint::Serve(const std::string& metrics_body) {
  const int64_t now = NowNs();
  while (true) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) break;  // none pending (EAGAIN), or one gone before it was taken
    scrapes_.push_back(Scrape{.fd = fd, .deadline_ns = now + kScrapeDeadlineNs});
  }
  std::erase_if(scrapes_, [&](Scrape& s) {
    if (!Progress(s, metrics_body, now)) return false;
    close(s.fd);
    return true;
  });
}

bool PrometheusEndpoint::Progress(Scrape& s, const std::string& metrics_body, int64_t now_ns) {
  if (now_ns > s.deadline_ns) return true;
  char buf[2048];
  while (s.response.empty()) {
    const ssize_t n = recv(s.fd, buf, sizeof(buf), 0);
    if (n == 0) return true;  // closed before asking
    if (n < 0) return errno != EAGAIN && errno != EINTR;
    s.request.append(buf, static_cast<size_t>(n));
    if (s.request.find("\r\n\r\n") != std::string::npos) {
      s.response = PrometheusResponse(s.request, metrics_body);
    } else if (s.request.size() > kMaxRequestBytes) {
      return true;
    }
  }
  while (s.sent < s.response.size()) {
    const ssize_t n =
        send(s.fd, s.response.data() + s.sent, s.response.size() - s.sent, MSG_NOSIGNAL);
    if (n < 0) return errno != EAGAIN && errno != EINTR;
    s.sent += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace dfbench::loadgen
