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

TEST(PrintableTest, RemovesEscapeSequencesWhole) {
  EXPECT_EQ(Printable("\x1b[31mred\x1b[0m 7.2.4"), "red 7.2.4");
  EXPECT_EQ(Printable("v\x1b]0;title\a1"), "v1");          // OSC ended by BEL
  EXPECT_EQ(Printable("v\x1b]8;;http://x\x1b\\1"), "v1");  // OSC ended by ST
  EXPECT_EQ(Printable("a\x1b"
                      "cb"),
            "ab");                                // ESC c: reset
  EXPECT_EQ(Printable("a\x1b[2J\x1b[Hb"), "ab");  // clear screen, home
  EXPECT_EQ(Printable("tail\x1b"), "tail");
  EXPECT_EQ(Printable("\x1b[31"), "");  // unterminated CSI
}

TEST(PrintableTest, ShowsOtherControlsEscaped) {
  EXPECT_EQ(Printable("a\rb\bc\x7f"
                      "d"),
            "a\\x0db\\x08c\\x7fd");
  EXPECT_EQ(Printable(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(Printable("two\nlines"), "two\\x0alines");
  EXPECT_EQ(Printable("two\nlines", /*keep_newlines=*/true), "two\nlines");
  EXPECT_EQ(Printable("a\tb"), "a b");
  // C1 controls as UTF-8 (U+009B is a one-character CSI to some terminals) and as lone bytes.
  EXPECT_EQ(Printable("x\xc2\x9b"
                      "31my"),
            "x\\x9b31my");
  EXPECT_EQ(Printable("x\xc2\x85y"), "x\\x85y");
  EXPECT_EQ(Printable("x\x9b"
                      "y"),
            "x\\x9by");
  // Not UTF-8: an overlong form, a surrogate, a cut sequence.
  EXPECT_EQ(Printable("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(Printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(Printable("end\xe2\x82"), "end\\xe2\\x82");
}

TEST(PrintableTest, KeepsValidUtf8) {
  const std::string text = "µs … Grüße 日本 🚀 \xc2\xa0nbsp";
  EXPECT_EQ(Printable(text), text);
  EXPECT_EQ(Printable("plain ASCII, 1.2.3"), "plain ASCII, 1.2.3");
}

}  // namespace
}  // namespace dfbench::core
