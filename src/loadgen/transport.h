// How a worker's connections reach their servers and wait on them: sockets and epoll
// (EpollTransport), or in tests fake streams on a fake clock (FakeTransport), so the worker's
// loop runs without a socket. Called once per connect, close, change of write interest and
// wait, never per request: the reads and writes go straight to each connection's Stream.
#pragma once

#include <sys/epoll.h>
#include <sys/socket.h>

#include <cstdint>
#include <string>

#include "loadgen/clock.h"
#include "loadgen/stream.h"

namespace dfbench::loadgen {

// Where to connect, resolved once.
struct Target {
  sockaddr_storage addr{};
  socklen_t addr_len = 0;
};

class Transport {
 public:
  // A connect's outcome so far.
  struct Dialed {
    enum class Status : uint8_t {
      kUp,       // connected: `stream` is the connection's (the transport's until Close)
      kPending,  // under way: an event on the connection says more (Connected)
      kFailed,   // `error` says why
    };
    Status status = Status::kPending;
    Stream* stream = nullptr;
    std::string error;
  };

  virtual ~Transport() = default;

  // Starts connection `id`'s connect to `target`, its stream of `kind` once up. From then on
  // the connection is watched for reads and writes, until Close(id).
  virtual Dialed Dial(uint32_t id, const Target& target, const StreamKind& kind) = 0;
  // An event (`events`, epoll's bits) on connection `id` while its connect was pending.
  virtual Dialed Connected(uint32_t id, uint32_t events) = 0;
  // Whether connection `id`'s writable event is wanted besides its readable one.
  virtual void WatchWrites(uint32_t id, bool want) = 0;
  // Closes connection `id`'s stream and socket, if any; its events stop.
  virtual void Close(uint32_t id) = 0;
  // Waits up to `timeout_ns` for events on the connections and fills `events` with up to
  // `max_events` of them (epoll's bits, `data.u32` the connection's id); how many.
  virtual int Wait(int64_t timeout_ns, epoll_event* events, int max_events) = 0;
  // Waits until `deadline_ns` (the clock's time) whatever happens; a signal ends it early.
  virtual void SleepUntil(int64_t deadline_ns) = 0;
  // The clock the waits keep, which the worker reads.
  virtual LoopClock Clock() const = 0;
};

}  // namespace dfbench::loadgen
