// The memory scenario's clock and series: the engine's process tree read on the server host at
// a fixed interval, each read kept with its time since the sampler started.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "hosts/host.h"
#include "results/memory_schema.h"

namespace dfbench::scenarios {

class MemorySampler {
 public:
  static constexpr std::chrono::milliseconds kInterval{100};

  // Samples `pid`'s tree on `host`, on `clock`'s schedule from now.
  MemorySampler(hosts::Host& host, int pid, core::Clock& clock = core::RealClock())
      : host_(&host), pid_(pid), clock_(&clock), start_(clock.Now()), next_(start_) {}

  // Seconds since the sampler started: the clock of the series.
  double Now() const;
  // Waits for the next tick (kInterval after the previous one; at once when late) and reads the
  // tree, keeping the sample. kInterrupted on SIGINT/SIGTERM; kFailure when the engine is gone.
  core::Result<results::MemorySample> Tick();
  // Reads the tree now, off the schedule (the moment a snapshot forks), keeping the sample.
  core::Result<results::MemorySample> SampleNow();
  // Ticks until the tree's PSS stays within 1% over `window` (at least `window` of samples),
  // or `limit` has passed, which a progress line names with `what` ("[redis] idle memory") and
  // the PSS range it still moved over; returns the last sample.
  core::Result<results::MemorySample> WaitUntilSettled(std::chrono::milliseconds window,
                                                       std::chrono::milliseconds limit,
                                                       const std::string& what);

  const std::vector<results::MemorySample>& samples() const { return samples_; }

 private:
  hosts::Host* host_;
  int pid_;
  core::Clock* clock_;
  core::MonotonicTime start_;
  core::MonotonicTime next_;
  std::vector<results::MemorySample> samples_;
};

}  // namespace dfbench::scenarios
