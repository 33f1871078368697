#include "scenarios/frame/server_counters.h"

#include <gtest/gtest.h>

#include "support/test_data.h"

namespace dfbench::scenarios {
namespace {

// tests/fixtures/info/README.md: 1000 SETs and 1000 GETs from redis-benchmark, which also sends
// two CONFIG GETs; INFO itself is counted after its reply, so it is not in the first answer.
TEST(DataOpsFromCommandStats, DragonflySumsItsCommandsOverItsThreads) {
  const std::string info = testing::FixtureText("info/dragonfly_info_commandstats.txt");
  ASSERT_NE(info.find("cmdstat_set:calls=1000,"), std::string::npos) << info;
  EXPECT_EQ(DataOpsFromCommandStats(info), 2000u);
}

TEST(DataOpsFromCommandStats, RedisSubcommandsCountAsTheirCommand) {
  const std::string info = testing::FixtureText("info/redis_info_commandstats.txt");
  ASSERT_NE(info.find("cmdstat_config|get:calls=2,"), std::string::npos) << info;
  EXPECT_EQ(DataOpsFromCommandStats(info), 2000u);
}

// Dragonfly 1.40's line for ACL SETUSER, as it answered INFO commandstats after one.
TEST(DataOpsFromCommandStats, DragonflySubcommandsCountAsTheirCommand) {
  EXPECT_EQ(DataOpsFromCommandStats("# Commandstats\r\n"
                                    "cmdstat_acl setuser:calls=1,usec=1161,usec_per_call=1161\r\n"
                                    "cmdstat_get:calls=4,usec=1,usec_per_call=0.2\r\n"),
            4u);
}

TEST(DataOpsFromCommandStats, ControlCommandsAndOtherLinesAreLeftOut) {
  EXPECT_EQ(DataOpsFromCommandStats("# Commandstats\r\n"
                                    "cmdstat_ping:calls=7,usec=1,usec_per_call=0.1\r\n"
                                    "cmdstat_INFO:calls=3,usec=1,usec_per_call=0.3\r\n"
                                    "cmdstat_flushall:calls=1,usec=1,usec_per_call=1\r\n"
                                    "cmdstat_lpush:calls=5,usec=1,usec_per_call=0.2\r\n"
                                    "total_commands_processed:99\r\n"),
            5u);
  EXPECT_EQ(DataOpsFromCommandStats(""), 0u);
}

// Redis 7 counts a command it refuses before running it (out of memory, wrong arity) apart, in
// rejected_calls; the client got an error reply for each, so they are operations too.
TEST(DataOpsFromCommandStats, RejectedCallsCount) {
  EXPECT_EQ(DataOpsFromCommandStats("# Commandstats\r\n"
                                    "cmdstat_set:calls=10,usec=20,usec_per_call=2.00,"
                                    "rejected_calls=5,failed_calls=1\r\n"
                                    "cmdstat_get:calls=3,usec=3,usec_per_call=1.00,"
                                    "rejected_calls=0,failed_calls=0\r\n"),
            18u);
}

}  // namespace
}  // namespace dfbench::scenarios
