#include "loadgen/prometheus_endpoint.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "support/wait_until.h"

namespace dfbench::loadgen {
namespace {

// A scraper's connection: sends `request`, then collects the answer as Serve() is called.
std::string ScrapeOnce(PrometheusEndpoint& endpoint, const std::string& request,
                       const std::string& body) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(endpoint.port()));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  EXPECT_EQ(send(fd, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
  std::string got;
  const bool closed = testing::WaitUntil(
      [&] {
        endpoint.Serve(body);
        char buf[4096];
        while (true) {
          const ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
          if (n == 0) return true;  // answered and closed
          if (n < 0) return false;
          got.append(buf, static_cast<size_t>(n));
        }
      },
      std::chrono::seconds(10), "the endpoint's answer");
  EXPECT_TRUE(closed);
  close(fd);
  return got;
}

TEST(PrometheusEndpoint, AnswersMetricsWithTheBody) {
  auto endpoint = PrometheusEndpoint::Listen("127.0.0.1", 0);
  ASSERT_TRUE(endpoint) << endpoint.error().message;
  const std::string body = "dfbench_loadgen_connections{run=\"r\"} 4\n";
  const std::string got =
      ScrapeOnce(**endpoint, "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n", body);
  EXPECT_TRUE(got.starts_with("HTTP/1.1 200 OK\r\n")) << got;
  EXPECT_NE(got.find("Content-Type: text/plain; version=0.0.4"), std::string::npos) << got;
  EXPECT_TRUE(got.ends_with("\r\n\r\n" + body)) << got;
}

TEST(PrometheusEndpoint, OtherPathsAreNotFound) {
  auto endpoint = PrometheusEndpoint::Listen("127.0.0.1", 0);
  ASSERT_TRUE(endpoint) << endpoint.error().message;
  const std::string got = ScrapeOnce(**endpoint, "GET / HTTP/1.1\r\n\r\n", "x 1\n");
  EXPECT_TRUE(got.starts_with("HTTP/1.1 404 Not Found\r\n")) << got;
}

TEST(PrometheusEndpoint, ABindThatIsNoAddressIsAUsageError) {
  auto endpoint = PrometheusEndpoint::Listen("localhost:9", 9100);
  ASSERT_FALSE(endpoint);
  EXPECT_EQ(endpoint.error().kind, core::ErrorKind::kUsage);
}

TEST(PrometheusEndpoint, APortTakenIsAnEnvironmentError) {
  auto first = PrometheusEndpoint::Listen("127.0.0.1", 0);
  ASSERT_TRUE(first) << first.error().message;
  auto second = PrometheusEndpoint::Listen("127.0.0.1", (*first)->port());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind, core::ErrorKind::kEnvironment);
}

}  // namespace
}  // namespace dfbench::loadgen
