// --start-at: generators on several client hosts end their warm-ups at one agreed wall-clock
// instant, so their measured windows line up.
#pragma once

#include <chrono>
#include <cstdint>

#include "core/clock.h"

namespace dfbench::loadgen {

// Sleeps on `clock` until the warm-up of `warmup` would end at `start_at_us` (microseconds since
// the epoch on the wall clock; 0: no wait); at once when that moment has passed. The wall clock
// is read again after each short slice, so a clock stepped meanwhile moves the wake-up with it.
// A SIGINT/SIGTERM ends the wait (the run then stops at once).
void WaitForStart(int64_t start_at_us, std::chrono::microseconds warmup,
                  core::Clock& clock = core::RealClock());

}  // namespace dfbench::loadgen
