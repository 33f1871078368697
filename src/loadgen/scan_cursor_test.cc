#include "loadgen/scan_cursor.h"

#include <gtest/gtest.h>

#include <string>

namespace dfbench::loadgen {
namespace {

std::string ScanReply(const std::string& cursor) {
  return "*2\r\n$" + std::to_string(cursor.size()) + "\r\n" + cursor + "\r\n*1\r\n$3\r\nkey\r\n";
}

TEST(ScanCursor, FollowsEachReplysCursorToZero) {
  ScanCursor scan(0);
  EXPECT_FALSE(scan.continuing());
  scan.Sent(false);
  scan.Feed(ScanReply("24"));
  scan.TakeReplies();
  EXPECT_TRUE(scan.continuing());
  EXPECT_EQ(scan.cursor(), "24");
  scan.Sent(true);
  scan.Feed(ScanReply("92"));
  scan.TakeReplies();
  EXPECT_EQ(scan.cursor(), "92");
  scan.Sent(true);
  scan.Feed(ScanReply("0"));
  scan.TakeReplies();
  EXPECT_FALSE(scan.continuing());
}

TEST(ScanCursor, TakesAReplySplitAnywhere) {
  ScanCursor scan(0);
  scan.Sent(false);
  const std::string reply = ScanReply("106");
  scan.Feed(reply.substr(0, 9));
  scan.TakeReplies();
  EXPECT_FALSE(scan.continuing());  // the cursor is not all there yet
  scan.Feed(reply.substr(9));
  scan.TakeReplies();
  EXPECT_EQ(scan.cursor(), "106");
}

TEST(ScanCursor, StartsAgainAfterMaxIterationsContinuations) {
  ScanCursor scan(2);
  scan.Sent(false);
  scan.Feed(ScanReply("1"));
  scan.TakeReplies();
  EXPECT_EQ(scan.cursor(), "1");  // SCAN 0 is no continuation
  scan.Sent(true);
  scan.Feed(ScanReply("2"));
  scan.TakeReplies();
  EXPECT_EQ(scan.cursor(), "2");
  scan.Sent(true);
  scan.Feed(ScanReply("3"));
  scan.TakeReplies();
  EXPECT_FALSE(scan.continuing());  // two continuations answered
}

TEST(ScanCursor, AnErrorOrAnotherReplyStartsAgain) {
  ScanCursor scan(0);
  scan.Sent(false);
  scan.Feed(ScanReply("7"));
  scan.TakeReplies();
  scan.Sent(true);
  scan.Feed("-ERR invalid cursor\r\n");
  scan.TakeReplies();
  EXPECT_FALSE(scan.continuing());
  scan.Sent(false);
  scan.Feed(ScanReply("7"));
  scan.TakeReplies();
  scan.Sent(true);
  scan.Feed("+OK\r\n");
  scan.TakeReplies();
  EXPECT_FALSE(scan.continuing());
}

TEST(ScanCursor, ResetForgetsTheWalkAndItsBytes) {
  ScanCursor scan(0);
  scan.Sent(false);
  scan.Feed(ScanReply("5"));
  scan.TakeReplies();
  scan.Feed("*2\r\n$1\r\n");
  scan.Reset();
  EXPECT_FALSE(scan.continuing());
  scan.Sent(false);
  scan.Feed(ScanReply("8"));
  scan.TakeReplies();
  EXPECT_EQ(scan.cursor(), "8");
}

}  // namespace
}  // namespace dfbench::loadgen
