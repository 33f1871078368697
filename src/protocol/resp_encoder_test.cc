#include "protocol/resp_encoder.h"

#include <gtest/gtest.h>

#include "protocol/resp_parser.h"

namespace dfbench::protocol {
namespace {

std::string Command(const std::vector<std::string_view>& args) {
  std::string out;
  AppendCommand(&out, args);
  return out;
}

std::string Encoded(const CommandTemplate& t, std::string_view key, std::string_view data) {
  std::string out;
  t.Encode(&out, key, data);
  EXPECT_EQ(out.size(), t.EncodedSize(key.size(), data.size()));
  return out;
}

CommandTemplate MustCompile(std::string_view line) {
  auto t = CommandTemplate::Compile(line);
  EXPECT_TRUE(t) << t.error().message;
  return std::move(*t);
}

TEST(AppendCommandTest, ByteExact) {
  EXPECT_EQ(Command({"PING"}), "*1\r\n$4\r\nPING\r\n");
  EXPECT_EQ(Command({"SET", "k", "v"}), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n");
  EXPECT_EQ(Command({"SET", "", "a\r\nb"}), "*3\r\n$3\r\nSET\r\n$0\r\n\r\n$4\r\na\r\nb\r\n");
  EXPECT_EQ(Command({}), "*0\r\n");
  std::string out = "prefix";
  AppendCommand(&out, {"GET", std::string(1000, 'k')});
  EXPECT_EQ(out, "prefix*2\r\n$3\r\nGET\r\n$1000\r\n" + std::string(1000, 'k') + "\r\n");
}

TEST(SplitCommandLineTest, WhitespaceAndQuotes) {
  auto args = SplitCommandLine("  SET   k\t\"a b\" ");
  ASSERT_TRUE(args);
  EXPECT_EQ(*args, (std::vector<std::string>{"SET", "k", "a b"}));
  args = SplitCommandLine(R"(SET "" pre"x y"post "q\"uote" "back\\slash" "\n")");
  ASSERT_TRUE(args);
  EXPECT_EQ(*args,
            (std::vector<std::string>{"SET", "", "prex ypost", "q\"uote", "back\\slash", "\\n"}));
  auto bad = SplitCommandLine("SET \"open");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(bad.error().message.find("unterminated quote"), std::string::npos);
}

TEST(CommandTemplateTest, SetWithKeyAndData) {
  const CommandTemplate t = MustCompile("SET __key__ __data__");
  EXPECT_EQ(t.arg_count(), 3u);
  EXPECT_EQ(t.name(), "SET");
  EXPECT_TRUE(t.uses_key());
  EXPECT_TRUE(t.uses_data());
  EXPECT_EQ(Encoded(t, "memtier-1", "xyz"), "*3\r\n$3\r\nSET\r\n$9\r\nmemtier-1\r\n$3\r\nxyz\r\n");
  const std::string value(256, 'v');
  EXPECT_EQ(Encoded(t, "key:1234567", value), Command({"SET", "key:1234567", value}));
  EXPECT_EQ(Encoded(t, "", ""), Command({"SET", "", ""}));
}

TEST(CommandTemplateTest, PlaceholdersInsideArgumentsAndLiterals) {
  const CommandTemplate t = MustCompile("HSET prefix:__key__ f1 __data__");
  EXPECT_EQ(t.arg_count(), 4u);
  EXPECT_EQ(t.name(), "HSET");
  EXPECT_EQ(t.args()[1], "prefix:__key__");
  EXPECT_EQ(Encoded(t, "42", "val"), Command({"HSET", "prefix:42", "f1", "val"}));

  const CommandTemplate twice = MustCompile("SET __key__:__key__-__data__ \"a b\"");
  EXPECT_EQ(Encoded(twice, "k", "dd"), Command({"SET", "k:k-dd", "a b"}));

  const CommandTemplate keyless = MustCompile("PING");
  EXPECT_FALSE(keyless.uses_key());
  EXPECT_FALSE(keyless.uses_data());
  EXPECT_EQ(Encoded(keyless, "ignored", "ignored"), "*1\r\n$4\r\nPING\r\n");

  const CommandTemplate no_data = MustCompile("GETRANGE __key__ 0 50");
  EXPECT_TRUE(no_data.uses_key());
  EXPECT_FALSE(no_data.uses_data());
  EXPECT_EQ(Encoded(no_data, "k1", "zz"), Command({"GETRANGE", "k1", "0", "50"}));

  // Underscores that do not form __word__ are plain text.
  const CommandTemplate plain = MustCompile("SET a__b ____ __key _x__ __key__");
  EXPECT_EQ(Encoded(plain, "K", ""), Command({"SET", "a__b", "____", "__key", "_x__", "K"}));
  EXPECT_EQ(Encoded(MustCompile("SET ___key__"), "K", ""), Command({"SET", "_K"}));
}

TEST(CommandTemplateTest, LengthPrefixTracksSizes) {
  const CommandTemplate t = MustCompile("SET __key__ __data__");
  for (size_t n : {0, 1, 9, 10, 99, 100, 999, 1000, 65536}) {
    const std::string data(n, 'd');
    EXPECT_EQ(Encoded(t, std::string(n, 'k'), data), Command({"SET", std::string(n, 'k'), data}));
  }
}

TEST(CommandTemplateTest, EncodesIntoReservedCapacityWithoutGrowing) {
  const CommandTemplate t = MustCompile("SET __key__ __data__");
  const std::string value(256, 'v');
  std::string out;
  out.reserve(30 * t.EncodedSize(16, value.size()));
  const char* const data = out.data();
  const size_t capacity = out.capacity();
  for (int i = 0; i < 30; ++i) t.Encode(&out, "key:000000000001", value);
  EXPECT_EQ(out.data(), data);
  EXPECT_EQ(out.capacity(), capacity);
  EXPECT_EQ(out.size(), 30 * t.EncodedSize(16, value.size()));
}

TEST(CommandTemplateTest, OutputParsesBack) {
  const CommandTemplate t = MustCompile("HSET h:__key__ field \"__data__ with space\"");
  const std::string out = Encoded(t, "7", "abc");
  Reply reply;
  size_t consumed = 0;
  ASSERT_EQ(ParseReply(out, &consumed, &reply), ParseStatus::kOk);
  ASSERT_EQ(reply.elements.size(), 4u);
  EXPECT_EQ(reply.elements[1].str, "h:7");
  EXPECT_EQ(reply.elements[3].str, "abc with space");
}

TEST(CommandTemplateTest, UnknownPlaceholderIsAUsageError) {
  auto t = CommandTemplate::Compile("SET __kye__ __data__");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(t.error().message,
            "unknown placeholder '__kye__' in command template (use __key__ or __data__)");
  for (const char* line : {"SET __KEY__ x", "ZADD z __score__ __key__", "SET k pre__x1__post"}) {
    auto bad = CommandTemplate::Compile(line);
    ASSERT_FALSE(bad) << line;
    EXPECT_EQ(bad.error().kind, core::ErrorKind::kUsage);
    EXPECT_NE(bad.error().message.find("unknown placeholder"), std::string::npos);
  }
}

TEST(CommandTemplateTest, EmptyOrUnterminatedIsAUsageError) {
  for (const char* line : {"", "   ", "SET \"__key__"}) {
    auto t = CommandTemplate::Compile(line);
    ASSERT_FALSE(t) << line;
    EXPECT_EQ(t.error().kind, core::ErrorKind::kUsage);
  }
}

}  // namespace
}  // namespace dfbench::protocol
