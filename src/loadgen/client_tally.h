// One client's figures for memtier's --client-stats files, kept only when they are asked for:
// per second of the measured window in which the client had a reply (memtier lists no other),
// its commands' counters; per command, its whole-run latency in memtier's own histogram.
#pragma once

#include <cstdint>
#include <vector>

#include "core/hdr_histogram.h"
#include "loadgen/stats.h"

namespace dfbench::loadgen {

class ClientTally {
 public:
  struct Second {
    int64_t second = 0;
    std::vector<SlotCounters> slots;
  };

  explicit ClientTally(size_t slots);
  // An empty histogram of latency_us()'s geometry.
  static core::HdrHistogram EmptyLatency();

  // The counters of `slot` in `second` (seconds come in order: a new one starts a row).
  SlotCounters& At(int64_t second, uint32_t slot) {
    if (seconds_.empty() || seconds_.back().second != second) Start(second);
    return seconds_.back().slots[slot];
  }
  // A reply of `slot` that counts as an operation, `latency_ns` after its origin.
  void Op(int64_t second, uint32_t slot, uint64_t latency_ns) {
    SlotCounters& c = At(second, slot);
    ++c.count;
    c.latency_sum_ns += static_cast<double>(latency_ns);
    latency_us_[slot].Record(static_cast<int64_t>(latency_ns / 1000));
  }

  const std::vector<Second>& seconds() const { return seconds_; }
  // Per slot, in microseconds, with the geometry of memtier's run_stats histograms.
  const std::vector<core::HdrHistogram>& latency_us() const { return latency_us_; }

 private:
  void Start(int64_t second);

  size_t slots_;
  std::vector<Second> seconds_;
  std::vector<core::HdrHistogram> latency_us_;
};

}  // namespace dfbench::loadgen
