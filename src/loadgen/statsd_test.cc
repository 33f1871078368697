#include "loadgen/statsd.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <string>

#include "support/local_socket.h"

namespace dfbench::loadgen {
namespace {

TEST(Statsd, SendsMemtierShapedDatagrams) {
  const testing::LocalSocket listener(SOCK_DGRAM);
  auto client = StatsdClient::Open("127.0.0.1", listener.port(), "bench.a", "my run");
  ASSERT_TRUE(client) << client.error().message;
  EXPECT_EQ(client->prefix(), "bench.a.my_run.");
  client->Gauge("ops_sec", 1234L);
  client->Gauge("progress_pct", 12.5);
  client->Timing("latency_ms", 0.25);
  EXPECT_EQ(listener.NextDatagram(), "bench.a.my_run.ops_sec:1234|g");
  EXPECT_EQ(listener.NextDatagram(), "bench.a.my_run.progress_pct:12.500000|g");
  EXPECT_EQ(listener.NextDatagram(), "bench.a.my_run.latency_ms:0.250|ms");
}

TEST(Statsd, AnEmptyPrefixLeavesTheLabelFirst) {
  const testing::LocalSocket listener(SOCK_DGRAM);
  auto client = StatsdClient::Open("127.0.0.1", listener.port(), "", "");
  ASSERT_TRUE(client) << client.error().message;
  EXPECT_EQ(client->prefix(), "default.");
}

TEST(Statsd, SanitizesAsMemtier) {
  EXPECT_EQ(SanitizeMetricPart("a.b c/d-e_f", true), "a.b_c_d-e_f");
  EXPECT_EQ(SanitizeMetricPart("a.b c", false), "a_b_c");
}

TEST(Statsd, NamesPercentilesAsMemtier) {
  EXPECT_EQ(PercentileMetricName(50), "latency_p50");
  EXPECT_EQ(PercentileMetricName(99.9), "latency_p99_9");
  EXPECT_EQ(PercentileMetricName(99.99), "latency_p99_99");
}

TEST(Statsd, AHostThatDoesNotResolveIsAnError) {
  auto client = StatsdClient::Open("no-such-host.invalid", 8125, "memtier", "default");
  ASSERT_FALSE(client);
  EXPECT_NE(client.error().message.find("no-such-host.invalid"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::loadgen
