// The open loop's grid: each thread lays its clients' uniform schedules on ticks, so that the
// requests falling due within one tick are due at its start and leave together, at one wake-up
// (docs/commands/loadgen.md#the-open-loops-schedule). A request is thus never due after its
// uniform due time, and the rate over any whole tick is the uniform schedule's.
#pragma once

#include <cstdint>

namespace dfbench::loadgen {

class ScheduleGrid {
 public:
  ScheduleGrid() = default;  // every instant is its own tick (the closed loop has no grid)
  // Thread `thread` of `threads`: the threads' ticks are spread over one tick, so their bursts
  // do not coincide. `tick_ns` > 0.
  ScheduleGrid(int64_t tick_ns, int thread, int threads)
      : tick_ns_(tick_ns), offset_ns_(tick_ns * thread / threads - tick_ns) {}

  // The start of the tick holding `uniform_ns`, both on a clock whose schedule began at
  // `start_ns` (uniform_ns >= start_ns).
  int64_t TickStart(int64_t start_ns, int64_t uniform_ns) const {
    // The offset lies a tick before the start, so the distance below is never negative.
    return uniform_ns - (uniform_ns - (start_ns + offset_ns_)) % tick_ns_;
  }

  int64_t tick_ns() const { return tick_ns_; }

 private:
  int64_t tick_ns_ = 1;
  int64_t offset_ns_ = 0;
};

}  // namespace dfbench::loadgen
