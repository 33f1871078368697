#include "protocol/request_buffer.h"

#include <gtest/gtest.h>

#include <string>

namespace dfbench::protocol {
namespace {

TEST(RequestBufferTest, KeepsItsBytesAcrossGrowth) {
  RequestBuffer out;
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    const std::string piece = "piece " + std::to_string(i) + "\r\n";
    out.append(piece);
    expected += piece;
  }
  EXPECT_EQ(out.view(), expected);
  EXPECT_EQ(out.size(), expected.size());
}

TEST(RequestBufferTest, ExtendTakesRoomThatShrinkGivesBack) {
  RequestBuffer out;
  out.append("abc");
  char* room = out.Extend(10);
  EXPECT_EQ(out.size(), 13u);
  room[0] = 'd';
  room[1] = 'e';
  out.Shrink(5);
  EXPECT_EQ(out.view(), "abcde");
  out.clear();
  EXPECT_TRUE(out.empty());
  out.append("x");
  EXPECT_EQ(out.view(), "x");
}

TEST(RequestBufferTest, ReservedCapacityIsNotReallocated) {
  RequestBuffer out;
  out.reserve(100);
  const char* at = out.data();
  for (int i = 0; i < 10; ++i) out.append("0123456789");
  EXPECT_EQ(out.data(), at);
  out.append("!");  // beyond it: moved, bytes kept
  EXPECT_EQ(out.view().substr(95), "56789!");
}

}  // namespace
}  // namespace dfbench::protocol
