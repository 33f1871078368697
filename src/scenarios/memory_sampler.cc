#include "scenarios/memory_sampler.h"

#include <algorithm>

#include "core/interrupt.h"
#include "hosts/process_memory.h"

namespace dfbench::scenarios {

namespace chr = std::chrono;

double MemorySampler::Now() const {
  return chr::duration<double>(chr::steady_clock::now() - start_).count();
}

core::Result<results::MemorySample> MemorySampler::Tick() {
  const auto now = chr::steady_clock::now();
  if (next_ > now &&
      !core::SleepUnlessInterrupted(chr::duration_cast<chr::milliseconds>(next_ - now))) {
    return core::Fail(core::ErrorKind::kInterrupted, "interrupted");
  }
  if (core::InterruptRequested()) return core::Fail(core::ErrorKind::kInterrupted, "interrupted");
  // A slow read (a busy host, SSH) delays the next tick rather than bunching samples up.
  next_ = std::max(next_ + kInterval, chr::steady_clock::now());
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
                                                                    chr::milliseconds limit) {
  const size_t span = std::max<size_t>(2, window / kInterval);
  const auto deadline = chr::steady_clock::now() + limit;
  while (true) {
    auto s = Tick();
    if (!s) return s;
    if (samples_.size() >= span) {
      auto [lo, hi] = std::minmax_element(
          samples_.end() - static_cast<std::ptrdiff_t>(span), samples_.end(),
          [](const auto& a, const auto& b) { return a.pss_bytes < b.pss_bytes; });
      if (static_cast<double>(hi->pss_bytes - lo->pss_bytes) <= 0.01 * hi->pss_bytes) return s;
    }
    if (chr::steady_clock::now() >= deadline) return s;
  }
}

}  // namespace dfbench::scenarios
