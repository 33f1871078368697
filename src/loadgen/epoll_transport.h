// The worker's real transport: non-blocking sockets (TCP_NODELAY on TCP), edge-triggered epoll,
// and each connection's stream chosen once it connects (OpenStream).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "loadgen/stream.h"
#include "loadgen/transport.h"

namespace dfbench::loadgen {

class EpollTransport final : public Transport {
 public:
  EpollTransport();
  ~EpollTransport() override;
  EpollTransport(const EpollTransport&) = delete;
  EpollTransport& operator=(const EpollTransport&) = delete;

  Dialed Dial(uint32_t id, const Target& target, const StreamKind& kind) override;
  Dialed Connected(uint32_t id, uint32_t events) override;
  void WatchWrites(uint32_t id, bool want) override;
  void Close(uint32_t id) override;
  int Wait(int64_t timeout_ns, epoll_event* events, int max_events) override;
  void SleepUntil(int64_t deadline_ns) override;
  LoopClock Clock() const override { return {}; }

 private:
  struct Socket {
    int fd = -1;
    StreamKind kind;  // the connection's, stamps off on a Unix socket
    std::unique_ptr<Stream> stream;
  };
  // The connected socket's stream.
  Dialed Open(Socket& s);

  int epfd_ = -1;
  std::vector<Socket> sockets_;  // by connection id
};

}  // namespace dfbench::loadgen
