// The plain and stamped streams over a real loopback TCP pair: every answer a worker's I/O site
// switches over (bytes, would block, want write, closed, failed). The TLS stream is proven
// against a TLS server in transport_test.cc.
#include "loadgen/stream.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ctime>
#include <string>

#include "loadgen/clock.h"
#include "support/wait_until.h"

namespace dfbench::loadgen {
namespace {

using Status = Io::Status;

// A connected pair of non-blocking TCP sockets on 127.0.0.1 (client, server side).
struct TcpPair {
  int client = -1, server = -1;
  TcpPair() {
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    EXPECT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(listen(listener, 1), 0);
    EXPECT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len), 0);
    client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    EXPECT_EQ(connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    server = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    close(listener);
    EXPECT_EQ(fcntl(client, F_SETFL, O_NONBLOCK), 0);
  }
  ~TcpPair() {
    if (client >= 0) close(client);
    if (server >= 0) close(server);
  }
};

// Reads until bytes arrive (they are on their way over loopback); kWouldBlock, with a test
// failure, when none come within 5 s.
Io ReadArrived(Stream& stream, char* buf, size_t cap) {
  Io io{.status = Status::kWouldBlock};
  EXPECT_TRUE(testing::WaitUntil(
      [&] {
        io = stream.Read(buf, cap);
        return io.status != Status::kWouldBlock;
      },
      std::chrono::seconds(5), "bytes over loopback"));
  return io;
}

int64_t RealtimeNs() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<int64_t>(now.tv_sec) * kNsPerSec + now.tv_nsec;
}

TEST(Stream, PlainMovesBytesAndSaysWhenToWait) {
  TcpPair pair;
  auto stream = OpenStream({}, pair.client);
  ASSERT_TRUE(stream) << stream.error().message;
  Stream& s = **stream;
  EXPECT_FALSE(s.NeedsHandshake());
  EXPECT_FALSE(s.Stamped());
  EXPECT_FALSE(s.Buffers());
  char buf[64];
  EXPECT_EQ(s.Read(buf, sizeof(buf)).status, Status::kWouldBlock);

  const Io wrote = s.Write("PING\r\n", 6);
  EXPECT_EQ(wrote.status, Status::kOk);
  EXPECT_EQ(wrote.bytes, 6u);
  ASSERT_EQ(read(pair.server, buf, sizeof(buf)), 6);
  ASSERT_EQ(write(pair.server, "+PONG\r\n", 7), 7);
  const Io got = ReadArrived(s, buf, sizeof(buf));
  ASSERT_EQ(got.status, Status::kOk);
  EXPECT_EQ(std::string(buf, got.bytes), "+PONG\r\n");
  EXPECT_EQ(got.stamp_ns, 0);

  close(pair.server);
  pair.server = -1;
  EXPECT_EQ(ReadArrived(s, buf, sizeof(buf)).status, Status::kClosed);
}

TEST(Stream, AFullSocketAsksForTheWritableEventAndAResetFails) {
  TcpPair pair;
  auto stream = OpenStream({}, pair.client);
  ASSERT_TRUE(stream);
  const std::string block(1 << 20, 'x');
  Io io;
  for (int i = 0; i < 256 && io.status == Status::kOk; ++i)
    io = (*stream)->Write(block.data(), block.size());
  EXPECT_EQ(io.status, Status::kWantWrite);

  // The peer goes away with unread data: the connection is reset.
  linger hard{.l_onoff = 1, .l_linger = 0};
  setsockopt(pair.server, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
  close(pair.server);
  pair.server = -1;
  EXPECT_TRUE(testing::WaitUntil(
      [&] {
        io = (*stream)->Write(block.data(), block.size());
        return io.status == Status::kFailed;
      },
      std::chrono::seconds(5), "a write failing on the reset connection"));
  EXPECT_FALSE((*stream)->error().empty());
}

TEST(Stream, AStampedReadCarriesTheKernelsReceiveTime) {
  TcpPair pair;
  auto stream = OpenStream({.stamped = true}, pair.client);
  ASSERT_TRUE(stream);
  ASSERT_TRUE((*stream)->Stamped());
  // The kernel turns receive stamps on a moment after the first socket asks (a deferred
  // switch): until then a read carries none, which the worker takes as "read now".
  Io got;
  int64_t before_ns = 0, after_ns = 0;
  ASSERT_TRUE(testing::WaitUntil(
      [&] {
        before_ns = RealtimeNs();
        EXPECT_EQ(write(pair.server, "+OK\r\n", 5), 5);
        char buf[16];
        got = ReadArrived(**stream, buf, sizeof(buf));
        after_ns = RealtimeNs();
        EXPECT_EQ(got.bytes, 5u);
        return got.status != Status::kOk || got.stamp_ns != 0;
      },
      std::chrono::seconds(5), "a read stamped by the kernel"));
  ASSERT_EQ(got.status, Status::kOk);
  // The kernel stamped the bytes between their write and their read.
  EXPECT_GE(got.stamp_ns, before_ns);
  EXPECT_LE(got.stamp_ns, after_ns);
}

}  // namespace
}  // namespace dfbench::loadgen
