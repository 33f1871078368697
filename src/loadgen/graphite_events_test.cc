#include "loadgen/graphite_events.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace dfbench::loadgen {
namespace {

// A TCP socket on 127.0.0.1 at a port the kernel picks; listening unless told not to.
class GraphitePort {
 public:
  explicit GraphitePort(bool listening) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    socklen_t size = sizeof(a);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size);
    port_ = ntohs(a.sin_port);
    if (listening) {
      EXPECT_EQ(listen(fd_, 4), 0);
    }
  }
  ~GraphitePort() { close(fd_); }
  int port() const { return port_; }
  // What the next connection sent until it closed, waiting up to 10 s for each part.
  std::string ReadOne() {
    pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
    if (poll(&p, 1, 10'000) != 1) return "";
    const int conn = accept(fd_, nullptr, nullptr);
    std::string got;
    char buf[1024];
    pollfd c{.fd = conn, .events = POLLIN, .revents = 0};
    while (poll(&c, 1, 10'000) == 1) {
      const ssize_t n = recv(conn, buf, sizeof(buf), 0);
      if (n <= 0) break;
      got.append(buf, static_cast<size_t>(n));
    }
    close(conn);
    return got;
  }

 private:
  int fd_;
  int port_ = 0;
};

TEST(GraphiteEvents, TheRequestIsMemtiers) {
  const std::string json =
      R"({"what":"Benchmark Started","tags":"memtier,start,run:r1","data":"threads=4 connections=50 run=1"})";
  EXPECT_EQ(GraphiteEventRequest("stats", 8080, "Benchmark Started",
                                 "threads=4 connections=50 run=1", "memtier,start", "r1"),
            "POST /events/ HTTP/1.1\r\nHost: stats:8080\r\nContent-Type: application/json\r\n"
            "Content-Length: " +
                std::to_string(json.size()) + "\r\nConnection: close\r\n\r\n" + json);
}

TEST(GraphiteEvents, PostsToTheListener) {
  GraphitePort graphite(true);
  GraphiteEvents events("127.0.0.1", graphite.port(), "r1");
  events.Post("Benchmark Completed", "run=1", "memtier,end");
  const std::string got = graphite.ReadOne();
  EXPECT_EQ(got, GraphiteEventRequest("127.0.0.1", graphite.port(), "Benchmark Completed", "run=1",
                                      "memtier,end", "r1"));
}

TEST(GraphiteEvents, AGraphiteThatIsDownIsSaidOnce) {
  GraphitePort closed(false);
  GraphiteEvents events("127.0.0.1", closed.port(), "r1");
  ::testing::internal::CaptureStderr();
  events.Post("Benchmark Started", "run=1", "memtier,start");
  events.Post("Benchmark Completed", "run=1", "memtier,end");
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("graphite events to 127.0.0.1:" + std::to_string(closed.port())),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace dfbench::loadgen
