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

TEST(FirstLineTest, SkipsBlankLinesAndStopsAtTheLineEnd) {
  const std::string ssh_error = "\n  ssh: connect to host 10.0.0.2: Connection refused\r\nmore\n";
  EXPECT_EQ(FirstLine(ssh_error), "ssh: connect to host 10.0.0.2: Connection refused");
  EXPECT_EQ(FirstLine("last"), "last");
  EXPECT_EQ(FirstLine(" \n"), "");
}

TEST(SplitWordsTest, KeepsEachWordVerbatim) {
  EXPECT_EQ(
      SplitWords("  --maxmemory=25gb \t --replication_stream_compression=zstd\n"),
      (std::vector<std::string>{"--maxmemory=25gb", "--replication_stream_compression=zstd"}));
  EXPECT_EQ(SplitWords("one"), std::vector<std::string>{"one"});
  EXPECT_TRUE(SplitWords("").empty());
  EXPECT_TRUE(SplitWords(" \t ").empty());
}

TEST(WithoutColourCodesTest, DropsColourCodesOnly) {
  // Dragonfly's `--version` first line, as its binary prints it into a pipe.
  EXPECT_EQ(WithoutColourCodes("dragonfly \x1b[0;32mv1.40.0-87-gf8eca6d0b-f8eca6d\x1b[m"),
            "dragonfly v1.40.0-87-gf8eca6d0b-f8eca6d");
  EXPECT_EQ(WithoutColourCodes("plain [0m text"), "plain [0m text");
  // An escape that is not a colour code stays.
  EXPECT_EQ(WithoutColourCodes("a\x1b[2Jb"), "a\x1b[2Jb");
  EXPECT_EQ(WithoutColourCodes("cut\x1b[0;3"), "cut\x1b[0;3");
}

}  // namespace
}  // namespace dfbench::core
