#include "loadgen/client_staircase.h"

#include <gtest/gtest.h>

#include "loadgen/config.h"

namespace dfbench::loadgen {
namespace {

// -c 10 --clients-start 2 --clients-step 3 --step-duration 5: 2, 5, 8, then 10.
constexpr ClientStaircase kStairs{.start = 2, .step = 3, .step_duration_s = 5, .clients = 10};

TEST(ClientStaircase, ClientsAtEachSecondAreMemtiersCount) {
  const uint32_t expected[] = {2, 2, 2, 2, 2, 5, 5, 5, 5, 5, 8, 8, 8, 8, 8, 10, 10, 10, 10, 10, 10};
  for (int64_t s = 0; s < static_cast<int64_t>(std::size(expected)); ++s) {
    EXPECT_EQ(kStairs.ClientsAt(s), expected[s]) << "second " << s;
  }
  EXPECT_EQ(kStairs.ClientsAt(-1), 2u);
  EXPECT_EQ(kStairs.ClientsAt(1'000'000), 10u);
}

TEST(ClientStaircase, EachClientJoinsAtTheEndOfItsStep) {
  const int64_t expected_s[] = {0, 0, 5, 5, 5, 10, 10, 10, 15, 15};
  for (uint32_t i = 0; i < 10; ++i) {
    EXPECT_EQ(kStairs.JoinsAtNs(i), expected_s[i] * kNsPerSec) << "client " << i;
  }
}

TEST(ClientStaircase, AClientJoinsTheSecondItIsCounted) {
  for (uint32_t i = 0; i < kStairs.clients; ++i) {
    const int64_t joins_s = kStairs.JoinsAtNs(i) / kNsPerSec;
    EXPECT_GT(kStairs.ClientsAt(joins_s), i);
    if (joins_s > 0) {
      EXPECT_LE(kStairs.ClientsAt(joins_s - 1), i);
    }
  }
}

TEST(ClientStaircase, WithoutOneEveryClientIsThereFromTheStart) {
  Config config;
  config.load.clients = 7;
  const ClientStaircase none = config.Staircase();
  EXPECT_FALSE(none.enabled());
  EXPECT_EQ(none.ClientsAt(0), 7u);
  EXPECT_EQ(none.JoinsAtNs(6), 0);
}

TEST(ClientStaircase, ConfigGivesTheFlagsValues) {
  Config config;
  config.load.clients = 4;
  config.clients_start = 1;
  config.clients_step = 2;
  config.step_duration_s = 3;
  const ClientStaircase s = config.Staircase();
  EXPECT_TRUE(s.enabled());
  EXPECT_EQ(s.ClientsAt(2), 1u);
  EXPECT_EQ(s.ClientsAt(3), 3u);
  EXPECT_EQ(s.ClientsAt(6), 4u);
  EXPECT_EQ(s.JoinsAtNs(3), 6 * kNsPerSec);
}

}  // namespace
}  // namespace dfbench::loadgen
