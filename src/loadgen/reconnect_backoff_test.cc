// The waits between a lost connection's attempts and when it gives up, on given times: ours by
// default, memtier's formula with --reconnect-backoff-factor and its count with
// --max-reconnect-attempts.
#include "loadgen/reconnect_backoff.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "loadgen/clock.h"

namespace dfbench::loadgen::backoff_test {
namespace {

constexpr int64_t kMs = kNsPerMs;
constexpr int64_t kSec = kNsPerSec;

// The waits of `attempts` failures in a row, all at time `now`, nullopt once it gives up.
std::vector<std::optional<int64_t>> Waits(const Config& config, int attempts, int64_t now = 1) {
  const ReconnectBackoff backoff(config);
  RetryState state;
  std::vector<std::optional<int64_t>> out;
  out.reserve(static_cast<size_t>(attempts));
  for (int i = 0; i < attempts; ++i) out.push_back(backoff.Next(&state, now));
  return out;
}

TEST(ReconnectBackoff, OursDoublesFrom10msUpTo1s) {
  EXPECT_EQ(Waits(Config{}, 9),
            (std::vector<std::optional<int64_t>>{10 * kMs, 20 * kMs, 40 * kMs, 80 * kMs, 160 * kMs,
                                                 320 * kMs, 640 * kMs, 1000 * kMs, 1000 * kMs}));
}

TEST(ReconnectBackoff, OursGivesUpAfter10sWithoutTheServer) {
  const ReconnectBackoff backoff(Config{});
  RetryState state;
  EXPECT_TRUE(backoff.Next(&state, 5 * kSec));
  EXPECT_TRUE(backoff.Next(&state, 15 * kSec - 1));
  EXPECT_EQ(backoff.Next(&state, 15 * kSec), std::nullopt);
}

TEST(ReconnectBackoff, MemtiersFactorMultipliesOneSecondBeforeEachAttempt) {
  Config config;
  config.reconnect_backoff_factor = 1.5;
  EXPECT_EQ(Waits(config, 3),
            (std::vector<std::optional<int64_t>>{1500 * kMs, 2250 * kMs, 3375 * kMs}));
  config.reconnect_backoff_factor = 0;  // no backoff: memtier waits 1 s each time
  EXPECT_EQ(Waits(config, 3), (std::vector<std::optional<int64_t>>{kSec, kSec, kSec}));
}

TEST(ReconnectBackoff, MaxAttemptsGivesUpAtTheFailureAfterTheLast) {
  Config config;
  config.max_reconnect_attempts = 2;
  EXPECT_EQ(Waits(config, 3), (std::vector<std::optional<int64_t>>{10 * kMs, 20 * kMs, {}}));
  // Set, it replaces our 10 s; 0 is memtier's unlimited.
  config.max_reconnect_attempts = 0;
  const ReconnectBackoff backoff(config);
  RetryState state;
  EXPECT_TRUE(backoff.Next(&state, 0));
  EXPECT_TRUE(backoff.Next(&state, 3600 * kSec));
}

TEST(ReconnectBackoff, UpStartsTheAttemptsOverAndMemtiersWait) {
  Config config;
  config.max_reconnect_attempts = 1;
  config.reconnect_backoff_factor = 3;
  const ReconnectBackoff backoff(config);
  RetryState state;
  EXPECT_EQ(backoff.Next(&state, 0), 3 * kSec);
  EXPECT_EQ(backoff.Next(&state, 0), std::nullopt);
  backoff.Up(&state);
  EXPECT_EQ(backoff.Next(&state, 10 * kSec), 3 * kSec);
}

}  // namespace
}  // namespace dfbench::loadgen::backoff_test
