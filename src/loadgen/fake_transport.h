// The worker's transport in tests: no socket and no epoll, a FakeStream per connection and a
// clock that moves only while the worker waits. A connect comes up at the first wait after it;
// a wait reports each connection whose stream has a reply or the close ready, and each that
// waits to write on a full stream (which then has room again); when there is none, the clock
// moves on to
// the next scripted reply's time, or by the whole timeout, as a real wait would sleep. A test
// may script how the dials to come are answered: accepted, refused, or never.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "loadgen/fake_stream.h"
#include "loadgen/transport.h"

namespace dfbench::loadgen {

class FakeTransport final : public Transport {
 public:
  explicit FakeTransport(int64_t start_ns) : now_(start_ns) {}

  // How the server answers a connect, and what it then does on the new stream.
  struct DialAnswer {
    enum class Kind { kAccept, kRefuse, kSilent };  // kSilent: the connect never completes
    Kind kind = Kind::kAccept;
    std::function<void(FakeStream&)> script;
  };
  // The answers to the next dials, in order, whichever connection makes them; every dial past
  // them is accepted.
  void ScriptDials(std::vector<DialAnswer> answers) { answers_ = std::move(answers); }
  // When each dial was made, in order.
  const std::vector<int64_t>& dial_times() const { return dial_times_; }

  Dialed Dial(uint32_t id, const Target& target, const StreamKind& kind) override;
  Dialed Connected(uint32_t id, uint32_t events) override;
  void WatchWrites(uint32_t id, bool want) override;
  void Close(uint32_t id) override;
  int Wait(int64_t timeout_ns, epoll_event* events, int max_events) override;
  void SleepUntil(int64_t deadline_ns) override;
  LoopClock Clock() const override { return LoopClock(&now_); }

  int64_t now() const { return now_; }
  // The stream connection `id` dialed last (a reconnect dials another), open or closed.
  FakeStream& stream(uint32_t id) { return *slots_.at(id).stream; }

 private:
  struct Slot {
    FakeStream* stream = nullptr;
    bool open = false;        // dialed and not closed since
    bool connecting = false;  // dialed, not up yet
    bool silent = false;      // dialed, never up
    bool watch_writes = false;
  };
  // The events due now, as Wait reports them.
  int Ready(epoll_event* events, int max_events);

  int64_t now_;
  std::vector<Slot> slots_;                           // by connection id
  std::vector<std::unique_ptr<FakeStream>> streams_;  // every one dialed
  std::vector<DialAnswer> answers_;
  std::vector<int64_t> dial_times_;
};

}  // namespace dfbench::loadgen
