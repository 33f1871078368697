#include "loadgen/start_at.h"

#include <algorithm>

#include "core/interrupt.h"

namespace dfbench::loadgen {

void WaitForStart(int64_t start_at_us, std::chrono::microseconds warmup, core::Clock& clock) {
  if (start_at_us == 0) return;
  const auto start = core::SystemTime(std::chrono::microseconds(start_at_us) - warmup);
  while (!core::InterruptRequested()) {
    const auto left = start - clock.WallNow();
    if (left <= core::SystemTime::duration::zero()) return;
    clock.SleepFor(std::min<std::chrono::nanoseconds>(left, std::chrono::milliseconds(50)));
  }
}

}  // namespace dfbench::loadgen
