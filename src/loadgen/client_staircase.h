// memtier's client staircase (--clients-start, --clients-step, --step-duration): each thread
// starts with `start` clients and adds `step` more every `step_duration_s` seconds until it has
// all of its clients. Pure arithmetic on the time since the load started, so the worker (when
// a client connects), the coordinator (the clients counted each second) and the tests read one
// schedule.
#pragma once

#include <algorithm>
#include <cstdint>

#include "loadgen/clock.h"

namespace dfbench::loadgen {

struct ClientStaircase {
  uint32_t start = 0;  // 0: no staircase, every client from the start
  uint32_t step = 0;
  uint32_t step_duration_s = 0;
  uint32_t clients = 0;  // per thread, the top of the staircase

  bool enabled() const { return start > 0; }

  // Clients of one thread active `elapsed_s` whole seconds after the load started (memtier's
  // count: the steps completed by then, capped at the top).
  uint32_t ClientsAt(int64_t elapsed_s) const {
    if (!enabled()) return clients;
    const uint64_t steps = static_cast<uint64_t>(std::max<int64_t>(0, elapsed_s)) / step_duration_s;
    return static_cast<uint32_t>(
        std::min<uint64_t>(clients, start + steps * static_cast<uint64_t>(step)));
  }

  // When a thread's client `index` (0-based) joins, in ns after the load started: 0 for the
  // first `start`, then `step` more at the end of each step.
  int64_t JoinsAtNs(uint32_t index) const {
    if (!enabled() || index < start) return 0;
    const int64_t step_number = (index - start) / step + 1;
    return step_number * step_duration_s * kNsPerSec;
  }
};

}  // namespace dfbench::loadgen
