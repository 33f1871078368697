#include "support/fake_clock.h"

namespace dfbench::testing {

core::MonotonicTime FakeClock::Now() const {
  std::lock_guard lock(mu_);
  return kMonotonicStart + elapsed_;
}

core::SystemTime FakeClock::WallNow() const {
  std::lock_guard lock(mu_);
  return wall_start_ + std::chrono::duration_cast<core::SystemTime::duration>(elapsed_);
}

void FakeClock::SleepFor(std::chrono::nanoseconds duration) {
  if (duration.count() <= 0) return;
  std::lock_guard lock(mu_);
  elapsed_ += duration;
  sleeps_.push_back(duration);
}

void FakeClock::Advance(std::chrono::nanoseconds duration) {
  std::lock_guard lock(mu_);
  elapsed_ += duration;
}

std::chrono::nanoseconds FakeClock::Elapsed() const {
  std::lock_guard lock(mu_);
  return elapsed_;
}

std::vector<std::chrono::nanoseconds> FakeClock::sleeps() const {
  std::lock_guard lock(mu_);
  return sleeps_;
}

}  // namespace dfbench::testing
