#include "loadgen/statsd.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace dfbench::loadgen {
namespace {

// A UDP socket on 127.0.0.1 at a port the kernel picks.
class StatsdListener {
 public:
  StatsdListener() : fd_(socket(AF_INET, SOCK_DGRAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    socklen_t size = sizeof(a);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size);
    port_ = ntohs(a.sin_port);
  }
  ~StatsdListener() { close(fd_); }
  int port() const { return port_; }
  // The next datagram, waiting up to 10 s; "" when none came.
  std::string Next() {
    pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
    if (poll(&p, 1, 10'000) != 1) return "";
    char buf[1024];
    const ssize_t n = recv(fd_, buf, sizeof(buf), 0);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  }

 private:
  int fd_;
  int port_ = 0;
};

TEST(Statsd, SendsMemtierShapedDatagrams) {
  StatsdListener listener;
  auto client = StatsdClient::Open("127.0.0.1", listener.port(), "bench.a", "my run");
  ASSERT_TRUE(client) << client.error().message;
  EXPECT_EQ(client->prefix(), "bench.a.my_run.");
  client->Gauge("ops_sec", 1234L);
  client->Gauge("progress_pct", 12.5);
  client->Timing("latency_ms", 0.25);
  EXPECT_EQ(listener.Next(), "bench.a.my_run.ops_sec:1234|g");
  EXPECT_EQ(listener.Next(), "bench.a.my_run.progress_pct:12.500000|g");
  EXPECT_EQ(listener.Next(), "bench.a.my_run.latency_ms:0.250|ms");
}

TEST(Statsd, AnEmptyPrefixLeavesTheLabelFirst) {
  StatsdListener listener;
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
