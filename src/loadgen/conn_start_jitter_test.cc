// memtier's connection start jitter: the pauses it draws, and a run that uses them against a real
// redis-server (every connection still comes up and carries its load).
#include "loadgen/conn_start_jitter.h"

#include <gtest/gtest.h>

#include <set>

#include "loadgen/run_ok_test_support.h"
#include "support/test_server.h"

namespace dfbench::loadgen {
namespace {

TEST(ConnStartJitter, PausesAreWithinTheBoundsAndOffWithoutAMaximum) {
  Config config;
  EXPECT_FALSE(ConnStartJitter(config, 1).enabled());
  config.conn_start_jitter_min_us = 10;
  config.conn_start_jitter_max_us = 13;
  ConnStartJitter jitter(config, 1);
  ASSERT_TRUE(jitter.enabled());
  std::set<uint64_t> seen;
  for (int i = 0; i < 200; ++i) seen.insert(jitter.NextUs());
  EXPECT_EQ(seen, (std::set<uint64_t>{10, 11, 12, 13}));
  config.conn_start_jitter_min_us = config.conn_start_jitter_max_us = 7;
  EXPECT_EQ(ConnStartJitter(config, 2).NextUs(), 7u);
}

TEST(ConnStartJitter, EveryConnectionComesUpWithPausesBetweenThem) {
  auto server = testing::TestServer::StartRedis();
  ASSERT_TRUE(server) << server.error().message;
  Config config = QuietRun(2, 4);
  config.port = server->port();
  config.pass.requests_per_client = 25;
  config.conn_start_jitter_min_us = 100;
  config.conn_start_jitter_max_us = 2000;
  const Report report = RunOk(config);
  EXPECT_EQ(report.totals.count, 200u);
  EXPECT_EQ(report.connection_errors, 0u);
  EXPECT_EQ(server->Calls("set") + server->Calls("get"), 200u);
}

}  // namespace
}  // namespace dfbench::loadgen
