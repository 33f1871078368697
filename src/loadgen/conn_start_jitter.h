// memtier's --thread-conn-start-min/max-jitter-micros: within a thread, a pause between creating
// one client's connections and the next's (client.cpp, the thread's connection loop), so that
// many clients do not knock on the server at one instant.
#pragma once

#include <cstdint>

#include "loadgen/config.h"
#include "loadgen/keygen.h"

namespace dfbench::loadgen {

class ConnStartJitter {
 public:
  ConnStartJitter(const Config& config, uint64_t seed)
      : min_us_(config.conn_start_jitter_min_us),
        max_us_(config.conn_start_jitter_max_us),
        rng_(seed) {}

  // As memtier, no pause unless the maximum is above 0.
  bool enabled() const { return max_us_ > 0; }
  // The next pause, in microseconds: uniform in [min, max].
  uint64_t NextUs() { return rng_.Between(min_us_, max_us_); }

 private:
  uint64_t min_us_;
  uint64_t max_us_;
  Rng rng_;
};

}  // namespace dfbench::loadgen
