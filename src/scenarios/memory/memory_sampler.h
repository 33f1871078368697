// The memory scenario's clock and series: the engine's process tree read on the server host at
// a fixed interval, each read kept with its time since the sampler started.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/error.h"
#include "hosts/host.h"
#include "results/memory_schema.h"

namespace dfbench::scenarios {

class MemorySampler {
 public:
  static constexpr std::chrono::milliseconds kInterval{100};

  MemorySampler(hosts::Host& host, int pid)
      : host_(&host), pid_(pid), start_(std::chrono::steady_clock::now()), next_(start_) {}

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
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_;
  std::vector<results::MemorySample> samples_;
};

}  // namespace dfbench::scenarios
