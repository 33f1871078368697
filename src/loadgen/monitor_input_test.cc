#include "loadgen/monitor_input.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/scoped_temp_dir.h"

namespace dfbench::loadgen {
namespace {

using Args = std::vector<std::string>;

TEST(MonitorInput, ParsesALineAsRedisWritesIt) {
  auto args = ParseMonitorLine(R"(1796680664.246580 [0 127.0.0.1:56636] "RPUSH" "l" "a b" "q\"x")");
  ASSERT_TRUE(args) << args.error().message;
  EXPECT_EQ(*args, (Args{"RPUSH", "l", "a b", "q\"x"}));
}

TEST(MonitorInput, UndoesRedisEscapes) {
  auto args = ParseMonitorLine(R"(1.0 [0 lua] "SET" "k" "\x00\xff\n\r\t\\" 'it\'s')");
  ASSERT_TRUE(args) << args.error().message;
  EXPECT_EQ(*args, (Args{"SET", "k", std::string("\x00\xff\n\r\t\\", 6), "it's"}));
}

TEST(MonitorInput, ALineWithoutQuotesHoldsNoCommand) {
  auto args = ParseMonitorLine("OK");
  ASSERT_TRUE(args);
  EXPECT_TRUE(args->empty());
}

TEST(MonitorInput, RefusesBrokenQuoting) {
  EXPECT_FALSE(ParseMonitorLine(R"(1.0 [0 x] "SET" "k)"));
  EXPECT_FALSE(ParseMonitorLine(R"(1.0 [0 x] "SET"x "k")"));
}

class MonitorFile : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    std::string path = (dir_ / "monitor.txt").string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  testing::ScopedTempDir dir_{"monitor"};
};

TEST_F(MonitorFile, ReadsTheCommandsAndTheirLines) {
  const std::string path = Write(
      "OK\r\n"
      "1.1 [0 127.0.0.1:1] \"SET\" \"k1\" \"v1\"\r\n"
      "\n"
      "1.2 [0 127.0.0.1:1] \"get\" \"k1\"\n");
  auto commands = ReadMonitorFile(path);
  ASSERT_TRUE(commands) << commands.error().message;
  ASSERT_EQ(commands->size(), 2u);
  EXPECT_EQ((*commands)[0].args, (Args{"SET", "k1", "v1"}));
  EXPECT_EQ((*commands)[0].file_line, 2u);
  EXPECT_EQ((*commands)[1].args, (Args{"get", "k1"}));
  EXPECT_EQ((*commands)[1].file_line, 4u);
}

TEST_F(MonitorFile, NamesTheFileAndLineOfABrokenLine) {
  const std::string path = Write("1.1 [0 x] \"SET\" \"k\" \"v\"\n1.2 [0 x] \"GET\" \"k\n");
  auto commands = ReadMonitorFile(path);
  ASSERT_FALSE(commands);
  EXPECT_EQ(commands.error().message, path + ":2: malformed MONITOR line: unterminated quote");
}

TEST_F(MonitorFile, RefusesAFileWithoutCommands) {
  const std::string path = Write("OK\n\n");
  auto commands = ReadMonitorFile(path);
  ASSERT_FALSE(commands);
  EXPECT_EQ(commands.error().message, "no commands found in monitor input file " + path);
  EXPECT_FALSE(ReadMonitorFile((dir_ / "absent.txt").string()));
}

TEST(MonitorPlaceholder, NamesACommandOrAll) {
  auto other = ParseMonitorPlaceholder("GET __key__", 3);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->kind, MonitorRef::Kind::kNone);
  auto line = ParseMonitorPlaceholder("__monitor_line3__", 3);
  ASSERT_TRUE(line);
  EXPECT_EQ(line->kind, MonitorRef::Kind::kLine);
  EXPECT_EQ(line->index, 2u);
  auto any = ParseMonitorPlaceholder("__monitor_line@__", 3);
  ASSERT_TRUE(any);
  EXPECT_EQ(any->kind, MonitorRef::Kind::kAny);
}

TEST(MonitorPlaceholder, RefusesWhatNamesNoCommand) {
  for (const char* text : {"__monitor_line0__", "__monitor_line4__", "__monitor_line2",
                           "__monitor_line2x__", "__monitor_line__"}) {
    auto ref = ParseMonitorPlaceholder(text, 3);
    ASSERT_FALSE(ref) << text;
    EXPECT_EQ(ref.error().message,
              "invalid monitor placeholder '" + std::string(text) +
                  "' (valid range: __monitor_line1__ to __monitor_line3__ or __monitor_line@__)");
  }
}

TEST(MonitorPlaceholder, NeedsACapture) {
  auto ref = ParseMonitorPlaceholder("__monitor_line1__", 0);
  ASSERT_FALSE(ref);
  EXPECT_EQ(ref.error().message, "'__monitor_line1__' needs --monitor-input");
}

}  // namespace
}  // namespace dfbench::loadgen
