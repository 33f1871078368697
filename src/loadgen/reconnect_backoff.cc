#include "loadgen/reconnect_backoff.h"

#include <algorithm>

#include "loadgen/clock.h"

namespace dfbench::loadgen {
namespace {

constexpr int64_t kBackoffMinNs = 10 * kNsPerMs;
constexpr int64_t kBackoffMaxNs = 1000 * kNsPerMs;
// A connection that cannot get back to the server for this long gives up, so a server that
// died does not leave a request-counted run waiting forever.
constexpr int64_t kGiveUpNs = 10 * kNsPerSec;
// memtier's waits grow without a bound; a day keeps F^n within an int64 of nanoseconds.
constexpr double kMemtierMaxWaitNs = 86'400.0 * kNsPerSec;

}  // namespace

ReconnectBackoff::ReconnectBackoff(const Config& config)
    : memtier_waits_(config.reconnect_backoff_factor.has_value()),
      factor_(config.reconnect_backoff_factor.value_or(0)),
      max_attempts_(config.max_reconnect_attempts) {}

std::optional<int64_t> ReconnectBackoff::Next(RetryState* s, int64_t now) const {
  if (s->down_since_ns == 0) s->down_since_ns = now;
  if (max_attempts_) {
    // memtier: shard_connection.cpp, attempt_reconnect and handle_reconnect_timer_event.
    if (*max_attempts_ > 0 && s->attempts >= *max_attempts_) return std::nullopt;
  } else if (now - s->down_since_ns >= kGiveUpNs) {
    return std::nullopt;
  }
  ++s->attempts;
  if (memtier_waits_) {
    // memtier's wait starts at 1 s and is multiplied by the factor before each attempt, when
    // the factor is not 0.
    const double last =
        s->backoff_ns == 0 ? static_cast<double>(kNsPerSec) : static_cast<double>(s->backoff_ns);
    const double wait = factor_ > 0 ? last * factor_ : last;
    s->backoff_ns = static_cast<int64_t>(std::clamp(wait, 1.0, kMemtierMaxWaitNs));
  } else {
    s->backoff_ns = s->backoff_ns == 0 ? kBackoffMinNs : std::min(2 * s->backoff_ns, kBackoffMaxNs);
  }
  return s->backoff_ns;
}

void ReconnectBackoff::Up(RetryState* s) const {
  s->attempts = 0;
  s->down_since_ns = 0;
  if (memtier_waits_) s->backoff_ns = 0;
}

}  // namespace dfbench::loadgen
