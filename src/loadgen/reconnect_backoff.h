// When a lost connection tries the server again, and when it gives up: our backoff by default,
// memtier's when its flags ask for it (--reconnect-backoff-factor, --max-reconnect-attempts). No
// socket or clock: the times are given, so its tests pin exact values.
#pragma once

#include <cstdint>
#include <optional>

#include "loadgen/config.h"

namespace dfbench::loadgen {

// A connection's tries since it was last up.
struct RetryState {
  int64_t backoff_ns = 0;     // the last wait; 0: none yet, or ours reset by a reply
  uint32_t attempts = 0;      // attempts made since the connection was last up
  int64_t down_since_ns = 0;  // when it was lost; 0 while up
};

class ReconnectBackoff {
 public:
  explicit ReconnectBackoff(const Config& config);

  // The connection failed at `now` (lost, refused or timed out): when to try again, counted as
  // one more attempt, or nullopt when it gives up.
  std::optional<int64_t> Next(RetryState* s, int64_t now) const;
  // It is up again: the attempts start over, and memtier's wait too (ours waits for a reply).
  void Up(RetryState* s) const;

 private:
  bool memtier_waits_;
  double factor_;
  std::optional<uint32_t> max_attempts_;
};

}  // namespace dfbench::loadgen
