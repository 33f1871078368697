#include "core/text.h"

#include <gtest/gtest.h>

#include <string>

namespace dfbench::core {
namespace {

TEST(TrimTest, DropsSurroundingWhitespaceOnly) {
  EXPECT_EQ(Trim("  a b\t\r\n"), "a b");
  EXPECT_EQ(Trim("\n"), "");
  EXPECT_EQ(Trim(""), "");
  EXPECT_EQ(Trim("x"), "x");
}

TEST(StripTerminalEscapesTest, DropsColourCodesOnly) {
  EXPECT_EQ(StripTerminalEscapes("dragonfly \x1b[0;32mv1.40.0\x1b[m"), "dragonfly v1.40.0");
  EXPECT_EQ(StripTerminalEscapes("plain [text]"), "plain [text]");
  EXPECT_EQ(StripTerminalEscapes("cut \x1b[0;3"), "cut ");
}

TEST(FirstLineTest, SkipsBlankLinesAndStopsAtTheLineEnd) {
  const std::string ssh_error = "\n  ssh: connect to host 10.0.0.2: Connection refused\r\nmore\n";
  EXPECT_EQ(FirstLine(ssh_error), "ssh: connect to host 10.0.0.2: Connection refused");
  EXPECT_EQ(FirstLine("last"), "last");
  EXPECT_EQ(FirstLine(" \n"), "");
}

}  // namespace
}  // namespace dfbench::core
