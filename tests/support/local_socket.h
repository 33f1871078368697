// A socket on 127.0.0.1 at a port the kernel picks, for tests that stand in for a metrics
// server: UDP datagrams as they come, or what each TCP connection sent before it closed.
#pragma once

#include <string>
#include <vector>

namespace dfbench::testing {

class LocalSocket {
 public:
  // `type`: SOCK_DGRAM or SOCK_STREAM; a stream socket listens unless `listening` is false
  // (bound only: a connect to it is refused).
  explicit LocalSocket(int type, bool listening = true);
  ~LocalSocket();
  LocalSocket(const LocalSocket&) = delete;
  LocalSocket& operator=(const LocalSocket&) = delete;

  int port() const { return port_; }
  // UDP: the next datagram, waiting up to 10 s; "" when none came.
  std::string NextDatagram() const;
  // UDP: the datagrams already received.
  std::vector<std::string> Datagrams() const;
  // TCP: what the next connection sent before it closed (up to 10 s for each part).
  std::string NextRequest() const;

 private:
  int fd_;
  int port_ = 0;
};

}  // namespace dfbench::testing
