#include "scenarios/memory/memory_sampler.h"

#include <algorithm>

#include "core/interrupt.h"
#include "core/log.h"
#include "hosts/process_memory.h"

namespace dfbench::scenarios {

namespace chr = std::chrono;

double MemorySampler::Now() const {
  return chr::duration<double>(clock_->Now() - start_).count();
}

core::Result<results::MemorySample> MemorySampler::Tick() {
  const auto now = clock_->Now();
  if (next_ > now &&
      !core::SleepUnlessInterrupted(chr::duration_cast<chr::milliseconds>(next_ - now), *clock_)) {
    return core::Fail(core::ErrorKind::kInterrupted, "interrupted");
  }
  if (core::InterruptRequested()) return core::Fail(core::ErrorKind::kInterrupted, "interrupted");
  // A slow read (a busy host, SSH) delays the next tick rather than bunching samples up.
  next_ = std::max(next_, clock_->Now()) + kInterval;
  return SampleNow();
}

core::Result<results::MemorySample> MemorySampler::SampleNow() {
  const double t_sec = Now();
  auto m = hosts::ReadProcessTreeMemory(*host_, pid_);
  if (!m) return tl::unexpected(m.error());
  samples_.push_back({.t_sec = t_sec,
                      .pss_bytes = m->pss_bytes,
                      .rss_bytes = m->rss_bytes,
                      .processes = m->processes,
                      .mem_available_bytes = m->mem_available_bytes});
  return samples_.back();
}

core::Result<results::MemorySample> MemorySampler::WaitUntilSettled(chr::milliseconds window,
                                                                    chr::milliseconds limit,
                                                                    const std::string& what) {
  const size_t span = std::max<size_t>(2, window / kInterval);
  const auto deadline = clock_->Now() + limit;
  uint64_t lowest = 0, highest = 0;
  while (true) {
    auto s = Tick();
    if (!s) return s;
    if (samples_.size() >= span) {
      auto [lo, hi] = std::minmax_element(
          samples_.end() - static_cast<std::ptrdiff_t>(span), samples_.end(),
          [](const auto& a, const auto& b) { return a.pss_bytes < b.pss_bytes; });
      lowest = lo->pss_bytes;
      highest = hi->pss_bytes;
      if (static_cast<double>(highest - lowest) <= 0.01 * static_cast<double>(highest)) return s;
    }
    if (clock_->Now() >= deadline) {
      core::Notef(
          "{}: PSS did not settle within {}s (still {:.1f}-{:.1f} MiB over the last {} ms); "
          "recording the last sample",
          what, chr::duration_cast<chr::seconds>(limit).count(),
          static_cast<double>(lowest) / (1 << 20), static_cast<double>(highest) / (1 << 20),
          window.count());
      return s;
    }
  }
}

}  // namespace dfbench::scenarios
