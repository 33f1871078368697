#include "loadgen/fake_transport.h"

#include <algorithm>

namespace dfbench::loadgen {

Transport::Dialed FakeTransport::Dial(uint32_t id, const Target& /*target*/,
                                      const StreamKind& /*kind*/) {
  if (id >= slots_.size()) slots_.resize(id + 1);
  const size_t nth = dial_times_.size();
  dial_times_.push_back(now_);
  const DialAnswer answer = nth < answers_.size() ? answers_[nth] : DialAnswer{};
  streams_.push_back(std::make_unique<FakeStream>(&now_));
  if (answer.script) answer.script(*streams_.back());
  if (answer.kind == DialAnswer::Kind::kRefuse) {
    slots_[id] = {.stream = streams_.back().get()};
    return {.status = Dialed::Status::kFailed, .error = "Connection refused"};
  }
  // As a socket's connect registers it for both events.
  slots_[id] = {.stream = streams_.back().get(),
                .open = true,
                .connecting = true,
                .silent = answer.kind == DialAnswer::Kind::kSilent,
                .watch_writes = true};
  return {};
}

Transport::Dialed FakeTransport::Connected(uint32_t id, uint32_t /*events*/) {
  Slot& slot = slots_.at(id);
  slot.connecting = false;
  return {.status = Dialed::Status::kUp, .stream = slot.stream};
}

void FakeTransport::WatchWrites(uint32_t id, bool want) {
  slots_.at(id).watch_writes = want;
}

void FakeTransport::Close(uint32_t id) {
  if (id < slots_.size()) slots_[id].open = false;
}

int FakeTransport::Ready(epoll_event* events, int max_events) {
  int n = 0;
  for (uint32_t id = 0; id < slots_.size() && n < max_events; ++id) {
    Slot& slot = slots_[id];
    if (!slot.open || slot.silent) continue;
    uint32_t bits = 0;
    // Edge-triggered, as the real one: a full stream's room is reported once.
    if (slot.connecting || (slot.watch_writes && slot.stream->full())) bits |= EPOLLOUT;
    if (!slot.connecting && slot.stream->Readable()) bits |= EPOLLIN;
    if (bits == 0) continue;
    if (bits & EPOLLOUT) slot.stream->Drain();
    events[n].events = bits;
    events[n].data.u32 = id;
    ++n;
  }
  return n;
}

int FakeTransport::Wait(int64_t timeout_ns, epoll_event* events, int max_events) {
  if (const int n = Ready(events, max_events); n > 0) return n;
  int64_t next_reply = INT64_MAX;
  for (const Slot& slot : slots_) {
    if (slot.open && !slot.connecting)
      next_reply = std::min(next_reply, slot.stream->NextReplyAt());
  }
  now_ = std::min(now_ + timeout_ns, next_reply);
  return Ready(events, max_events);
}

void FakeTransport::SleepUntil(int64_t deadline_ns) {
  now_ = std::max(now_, deadline_ns);
}

}  // namespace dfbench::loadgen
