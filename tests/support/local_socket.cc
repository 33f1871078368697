#include "support/local_socket.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace dfbench::testing {
namespace {

constexpr int kWaitMs = 10'000;

bool Readable(int fd) {
  pollfd p{.fd = fd, .events = POLLIN, .revents = 0};
  return poll(&p, 1, kWaitMs) == 1;
}

}  // namespace

LocalSocket::LocalSocket(int type, bool listening) : fd_(socket(AF_INET, type, 0)) {
  const int buffer = 4 << 20;  // room for every datagram of a run, read after it ends
  setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof(buffer));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  socklen_t size = sizeof(a);
  getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size);
  port_ = ntohs(a.sin_port);
  if (type == SOCK_STREAM && listening) {
    EXPECT_EQ(listen(fd_, 8), 0);
  }
}

LocalSocket::~LocalSocket() {
  close(fd_);
}

std::string LocalSocket::NextDatagram() const {
  if (!Readable(fd_)) return "";
  char buf[2048];
  const ssize_t n = recv(fd_, buf, sizeof(buf), 0);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

std::vector<std::string> LocalSocket::Datagrams() const {
  std::vector<std::string> out;
  char buf[2048];
  while (true) {
    const ssize_t n = recv(fd_, buf, sizeof(buf), MSG_DONTWAIT);
    if (n <= 0) return out;
    out.emplace_back(buf, static_cast<size_t>(n));
  }
}

std::string LocalSocket::NextRequest() const {
  if (!Readable(fd_)) return "";
  const int conn = accept(fd_, nullptr, nullptr);
  std::string got;
  char buf[2048];
  while (Readable(conn)) {
    const ssize_t n = recv(conn, buf, sizeof(buf), 0);
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  close(conn);
  return got;
}

}  // namespace dfbench::testing
