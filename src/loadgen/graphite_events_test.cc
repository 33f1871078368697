#include "loadgen/graphite_events.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <string>

#include "support/local_socket.h"

namespace dfbench::loadgen {
namespace {

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
  const testing::LocalSocket graphite(SOCK_STREAM);
  GraphiteEvents events("127.0.0.1", graphite.port(), "r1");
  events.Post("Benchmark Completed", "run=1", "memtier,end");
  const std::string got = graphite.NextRequest();
  EXPECT_EQ(got, GraphiteEventRequest("127.0.0.1", graphite.port(), "Benchmark Completed", "run=1",
                                      "memtier,end", "r1"));
}

TEST(GraphiteEvents, AGraphiteThatIsDownIsSaidOnce) {
  const testing::LocalSocket closed(SOCK_STREAM, /*listening=*/false);
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
