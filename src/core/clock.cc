#include "core/clock.h"

#include <thread>

namespace dfbench::core {
namespace {

class SystemClock final : public Clock {
 public:
  MonotonicTime Now() const override {
    return MonotonicTime(std::chrono::nanoseconds(MonotonicNowNs()));
  }
  SystemTime WallNow() const override { return std::chrono::system_clock::now(); }
  void SleepFor(std::chrono::nanoseconds duration) override {
    if (duration.count() > 0) std::this_thread::sleep_for(duration);
  }
};

}  // namespace

Clock& RealClock() {
  static SystemClock clock;
  return clock;
}

}  // namespace dfbench::core
