#include "protocol/resp_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/chunked_scan.h"

namespace dfbench::protocol {
namespace {

using Scanned = testing::ScannedReply;
using ScanOutcome = testing::ChunkedScan;

ScanOutcome ScanChunks(std::string_view data, const std::vector<size_t>& sizes) {
  RespScanner scanner;
  ScanOutcome outcome = testing::ScanInChunks(scanner, data, sizes);
  EXPECT_FALSE(outcome.overconsumed);
  EXPECT_TRUE(!outcome.failed || !outcome.error.empty());
  return outcome;
}

ScanOutcome ScanWhole(std::string_view data) {
  return ScanChunks(data, {});
}

// Every complete reply through ParseReply, as the scanner would summarise them.
ScanOutcome ParseAll(std::string_view data) {
  ScanOutcome outcome;
  size_t pos = 0;
  while (true) {
    Reply reply;
    size_t consumed = 0;
    const ParseStatus st = ParseReply(data.substr(pos), &consumed, &reply);
    if (st == ParseStatus::kIncomplete) break;
    if (st == ParseStatus::kProtocolError) {
      outcome.failed = true;
      break;
    }
    pos += consumed;
    outcome.replies.push_back({KindOf(reply), ""});
  }
  return outcome;
}

Reply ParseOne(std::string_view data) {
  Reply reply;
  size_t consumed = 0;
  std::string error;
  EXPECT_EQ(ParseReply(data, &consumed, &reply, &error), ParseStatus::kOk) << error;
  EXPECT_EQ(consumed, data.size());
  return reply;
}

ParseStatus ParseStatusOf(std::string_view data) {
  Reply reply;
  size_t consumed = 0;
  return ParseReply(data, &consumed, &reply);
}

// One reply of every type, RESP2 and RESP3, nested ones included.
const std::vector<std::string>& AllReplies() {
  static const std::vector<std::string> replies = {
      "+OK\r\n",
      "-ERR unknown command 'FOO'\r\n",
      ":1000\r\n",
      ":-42\r\n",
      "$5\r\nhello\r\n",
      "$0\r\n\r\n",
      "$-1\r\n",
      "*-1\r\n",
      "*0\r\n",
      "*3\r\n$3\r\nfoo\r\n:7\r\n$-1\r\n",
      "*2\r\n*2\r\n:1\r\n:2\r\n*2\r\n+a\r\n-ERR inner\r\n",
      "*1\r\n*1\r\n*1\r\n*0\r\n",
      std::string("$12\r\nbin\r\nary\x00\xff\r\n\r\n", 19),
      "_\r\n",
      "#t\r\n",
      "#f\r\n",
      ",3.14159\r\n",
      ",-inf\r\n",
      "(3492890328409238509324850943850943825024385\r\n",
      "=15\r\ntxt:Some string\r\n",
      "!21\r\nSYNTAX invalid syntax\r\n",
      "%2\r\n+first\r\n:1\r\n+second\r\n:2\r\n",
      "~3\r\n+a\r\n+b\r\n+c\r\n",
      ">3\r\n+message\r\n+channel\r\n$5\r\nhello\r\n",
      "|1\r\n+key-popularity\r\n%1\r\n$1\r\na\r\n,0.19\r\n*2\r\n:2039123\r\n:9543892\r\n",
      "*2\r\n|1\r\n+ttl\r\n:3600\r\n:1\r\n:2\r\n",
      "|0\r\n-ERR after empty attribute\r\n",
      "%0\r\n",
  };
  return replies;
}

std::string AllRepliesStream() {
  std::string stream;
  for (const auto& r : AllReplies()) stream += r;
  return stream;
}

TEST(RespScannerTest, SummarisesEveryType) {
  const std::vector<Scanned> expected = {
      {ReplyKind::kOk, ""},   {ReplyKind::kError, "ERR unknown command 'FOO'"},
      {ReplyKind::kOk, ""},   {ReplyKind::kOk, ""},
      {ReplyKind::kOk, ""},   {ReplyKind::kOk, ""},
      {ReplyKind::kNull, ""}, {ReplyKind::kNull, ""},
      {ReplyKind::kOk, ""},   {ReplyKind::kOk, ""},
      {ReplyKind::kOk, ""},  // an error inside an array does not make the reply an error
      {ReplyKind::kOk, ""},   {ReplyKind::kOk, ""},
      {ReplyKind::kNull, ""}, {ReplyKind::kOk, ""},
      {ReplyKind::kOk, ""},   {ReplyKind::kOk, ""},
      {ReplyKind::kOk, ""},   {ReplyKind::kOk, ""},
      {ReplyKind::kOk, ""},   {ReplyKind::kError, "SYNTAX invalid syntax"},
      {ReplyKind::kOk, ""},   {ReplyKind::kOk, ""},
      {ReplyKind::kPush, ""},  // out of band: the caller decides
      {ReplyKind::kOk, ""},    // the attribute is not a reply: the array after it is
      {ReplyKind::kOk, ""},   {ReplyKind::kError, "ERR after empty attribute"},
      {ReplyKind::kOk, ""},
  };
  ASSERT_EQ(expected.size(), AllReplies().size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(AllReplies()[i]);
    const ScanOutcome whole = ScanWhole(AllReplies()[i]);
    EXPECT_FALSE(whole.failed);
    ASSERT_EQ(whole.replies.size(), 1u);
    EXPECT_EQ(whole.replies[0], expected[i]);
    const ScanOutcome parsed = ParseAll(AllReplies()[i]);
    ASSERT_EQ(parsed.replies.size(), 1u);
    EXPECT_EQ(parsed.replies[0].kind, expected[i].kind);
  }
}

TEST(RespScannerTest, EverySplitPointMatchesWholeBuffer) {
  const std::string stream = AllRepliesStream();
  const ScanOutcome whole = ScanWhole(stream);
  ASSERT_FALSE(whole.failed);
  ASSERT_EQ(whole.replies.size(), AllReplies().size());
  for (size_t split = 0; split <= stream.size(); ++split) {
    // A blob error's text is only reported when it lies in one chunk, so compare kinds here.
    const ScanOutcome two = ScanChunks(stream, {split});
    ASSERT_FALSE(two.failed) << "split at " << split;
    ASSERT_EQ(two.replies.size(), whole.replies.size()) << "split at " << split;
    for (size_t i = 0; i < two.replies.size(); ++i) {
      EXPECT_EQ(two.replies[i].kind, whole.replies[i].kind) << "split at " << split;
    }
  }
}

TEST(RespScannerTest, ByteByByteAndRandomChunks) {
  const std::string stream = AllRepliesStream();
  const ScanOutcome whole = ScanWhole(stream);
  const ScanOutcome bytes = ScanChunks(stream, std::vector<size_t>(stream.size(), 1));
  ASSERT_EQ(bytes.replies.size(), whole.replies.size());
  for (size_t i = 0; i < whole.replies.size(); ++i) {
    EXPECT_EQ(bytes.replies[i].kind, whole.replies[i].kind);
  }
  std::mt19937 rng(12345);
  for (int round = 0; round < 300; ++round) {
    std::vector<size_t> sizes;
    std::uniform_int_distribution<size_t> size(0, 40);
    for (size_t total = 0; total < stream.size(); total += sizes.back()) sizes.push_back(size(rng));
    const ScanOutcome chunked = ScanChunks(stream, sizes);
    ASSERT_FALSE(chunked.failed);
    ASSERT_EQ(chunked.replies.size(), whole.replies.size());
    for (size_t i = 0; i < whole.replies.size(); ++i) {
      EXPECT_EQ(chunked.replies[i].kind, whole.replies[i].kind);
    }
  }
}

TEST(RespScannerTest, ErrorTextReportedWhenContiguous) {
  const std::string blob = "!21\r\nSYNTAX invalid syntax\r\n";
  EXPECT_EQ(ScanChunks(blob, {}).replies.at(0).error_text, "SYNTAX invalid syntax");
  EXPECT_EQ(ScanChunks(blob, {10}).replies.at(0).error_text, "");
  // The text is whole in the first chunk but the reply ends in the next: by then the first
  // chunk may be gone, so no text.
  EXPECT_EQ(ScanChunks(blob, {blob.size() - 1}).replies.at(0).error_text, "");
  // A simple error is a header line, always whole when reported.
  const std::string simple = "-ERR wrong\r\n";
  for (size_t split = 0; split <= simple.size(); ++split) {
    EXPECT_EQ(ScanChunks(simple, {split}).replies.at(0).error_text, "ERR wrong");
  }
}

TEST(RespScannerTest, BigBulkAcrossChunksIsSkippedNotBuffered) {
  const std::string payload(1 << 20, 'x');
  const std::string stream =
      std::string("$") + std::to_string(payload.size()) + "\r\n" + payload + "\r\n+OK\r\n";
  const ScanOutcome outcome = ScanChunks(stream, std::vector<size_t>(2000, 1000));
  ASSERT_FALSE(outcome.failed);
  ASSERT_EQ(outcome.replies.size(), 2u);
  EXPECT_EQ(outcome.replies[0].kind, ReplyKind::kOk);
  // Only partial header lines are ever kept back, never payload.
  EXPECT_LT(outcome.max_pending, 16u);
}

TEST(RespScannerTest, PipelineOfReplies) {
  std::string stream;
  for (int i = 0; i < 30; ++i) stream += i % 3 == 0 ? "$-1\r\n" : "$3\r\nabc\r\n";
  const ScanOutcome outcome = ScanWhole(stream);
  ASSERT_EQ(outcome.replies.size(), 30u);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(outcome.replies[i].kind, i % 3 == 0 ? ReplyKind::kNull : ReplyKind::kOk);
  }
}

// One scanner fed call by call, counting the replies it reports.
class RespScannerCallsTest : public ::testing::Test {
 protected:
  ScanResult Scan(std::string_view data) {
    return scanner.Scan(data, [this](ReplyKind, std::string_view) { ++replies; });
  }

  RespScanner scanner;
  int replies = 0;
};

TEST_F(RespScannerCallsTest, IncompleteHeaderIsLeftUnconsumed) {
  ScanResult r = Scan("+OK\r\n$1");
  EXPECT_EQ(r.status, ParseStatus::kOk);
  EXPECT_EQ(r.consumed, 5u);
  EXPECT_EQ(replies, 1);
  EXPECT_TRUE(scanner.idle());
  r = Scan("$10\r\nabc");
  EXPECT_EQ(r.consumed, 8u);
  EXPECT_FALSE(scanner.idle());
  r = Scan("defghij\r\n");
  EXPECT_EQ(r.consumed, 9u);
  EXPECT_EQ(replies, 2);
  EXPECT_TRUE(scanner.idle());
}

TEST(RespScannerTest, HeaderLineLengthCap) {
  const std::string at_cap = std::string("+") + std::string(kMaxLineBytes - 3, 'a') + "\r\n";
  EXPECT_EQ(ScanWhole(at_cap).replies.size(), 1u);
  EXPECT_EQ(ParseStatusOf(at_cap), ParseStatus::kOk);
  const std::string over = std::string("+") + std::string(kMaxLineBytes - 2, 'a') + "\r\n";
  EXPECT_TRUE(ScanWhole(over).failed);
  EXPECT_EQ(ParseStatusOf(over), ParseStatus::kProtocolError);
  // Without its end, a line is incomplete until it cannot fit any more.
  const std::string partial(kMaxLineBytes - 1, 'a');
  EXPECT_FALSE(ScanWhole(std::string("+") + partial.substr(1)).failed);
  EXPECT_EQ(ParseStatusOf(std::string("+") + partial.substr(1)), ParseStatus::kIncomplete);
  EXPECT_TRUE(ScanWhole(std::string("+") + partial).failed);
  EXPECT_EQ(ParseStatusOf(std::string("+") + partial), ParseStatus::kProtocolError);
}

TEST(RespScannerTest, NestingDepthCap) {
  std::string deep;
  for (int i = 0; i < kMaxDepth; ++i) deep += "*1\r\n";
  EXPECT_EQ(ScanWhole(deep + ":1\r\n").replies.size(), 1u);
  EXPECT_EQ(ParseStatusOf(deep + ":1\r\n"), ParseStatus::kOk);
  EXPECT_EQ(ScanWhole(deep + "*0\r\n").replies.size(), 1u);  // an empty array opens nothing
  EXPECT_EQ(ParseStatusOf(deep + "*0\r\n"), ParseStatus::kOk);
  EXPECT_TRUE(ScanWhole(deep + "*1\r\n:1\r\n").failed);
  EXPECT_EQ(ParseStatusOf(deep + "*1\r\n:1\r\n"), ParseStatus::kProtocolError);
}

TEST(RespScannerTest, MalformedInputIsAProtocolError) {
  const std::vector<std::string> bad = {
      "$-2\r\n",
      "$abc\r\n",
      "$\r\n",
      "$+3\r\nabc\r\n",
      "$3\r\nfooXY",
      "$3\r\nfoo\rX",
      "*-5\r\n",
      "*x\r\n",
      "%-1\r\n",
      "~-1\r\n",
      ">-1\r\n",
      "|-1\r\n",
      "!-1\r\n",
      "=-1\r\n",
      "+OK\n",
      "\r\n",
      "\n",
      "?\r\n",
      "x\r\n",
      ":12a\r\n",
      ":\r\n",
      ":-\r\n",
      ":+1\r\n",
      "#x\r\n",
      "#\r\n",
      "_x\r\n",
      ":99999999999999999999\r\n",
      "$1234567890123456789\r\n",
      "*2\r\n:1\r\n?\r\n",
      ":9223372036854775808\r\n",
  };
  for (const std::string& input : bad) {
    SCOPED_TRACE(input);
    EXPECT_TRUE(ScanWhole(input).failed);
    EXPECT_EQ(ParseStatusOf(input), ParseStatus::kProtocolError);
    EXPECT_TRUE(ScanChunks(input, std::vector<size_t>(input.size(), 1)).failed);
  }
  EXPECT_EQ(ParseStatusOf(":9223372036854775807\r\n"), ParseStatus::kOk);
  EXPECT_EQ(ParseStatusOf(":-9223372036854775808\r\n"), ParseStatus::kOk);
}

TEST_F(RespScannerCallsTest, FailureIsStickyUntilReset) {
  ScanResult r = Scan("+OK\r\n?bad\r\n+OK\r\n");
  EXPECT_EQ(r.status, ParseStatus::kProtocolError);
  EXPECT_EQ(r.consumed, 5u);
  EXPECT_EQ(replies, 1);
  EXPECT_NE(scanner.error().find("'?bad'"), std::string::npos) << scanner.error();
  EXPECT_EQ(Scan("+OK\r\n").status, ParseStatus::kProtocolError);
  scanner.Reset();
  EXPECT_EQ(Scan("+OK\r\n").status, ParseStatus::kOk);
  EXPECT_EQ(replies, 2);
}

TEST(ParseReplyTest, MaterialisesEveryType) {
  Reply r = ParseOne("+OK\r\n");
  EXPECT_EQ(r.type, ReplyType::kSimpleString);
  EXPECT_EQ(r.str, "OK");
  r = ParseOne("-ERR bad\r\n");
  EXPECT_TRUE(r.is_error());
  EXPECT_EQ(r.str, "ERR bad");
  r = ParseOne(":-42\r\n");
  EXPECT_EQ(r.type, ReplyType::kInteger);
  EXPECT_EQ(r.integer, -42);
  r = ParseOne(std::string("$12\r\nbin\r\nary\x00\xff\r\n\r\n", 19));
  EXPECT_EQ(r.type, ReplyType::kBulkString);
  EXPECT_EQ(r.str, std::string("bin\r\nary\x00\xff\r\n", 12));
  EXPECT_TRUE(ParseOne("$-1\r\n").is_null());
  EXPECT_TRUE(ParseOne("*-1\r\n").is_null());
  EXPECT_TRUE(ParseOne("_\r\n").is_null());
  r = ParseOne("*0\r\n");
  EXPECT_EQ(r.type, ReplyType::kArray);
  EXPECT_TRUE(r.elements.empty());
  r = ParseOne("#t\r\n");
  EXPECT_EQ(r.type, ReplyType::kBoolean);
  EXPECT_EQ(r.integer, 1);
  EXPECT_EQ(ParseOne("#f\r\n").integer, 0);
  r = ParseOne(",3.14\r\n");
  EXPECT_EQ(r.type, ReplyType::kDouble);
  EXPECT_EQ(r.str, "3.14");
  r = ParseOne("(12345678901234567890123\r\n");
  EXPECT_EQ(r.type, ReplyType::kBigNumber);
  EXPECT_EQ(r.str, "12345678901234567890123");
  r = ParseOne("=15\r\ntxt:Some string\r\n");
  EXPECT_EQ(r.type, ReplyType::kBulkString);
  EXPECT_EQ(r.str, "Some string");
  r = ParseOne("!21\r\nSYNTAX invalid syntax\r\n");
  EXPECT_TRUE(r.is_error());
  EXPECT_EQ(r.str, "SYNTAX invalid syntax");
}

TEST(ParseReplyTest, AggregatesFlattenAndAttributesDrop) {
  Reply r = ParseOne("*2\r\n*2\r\n:1\r\n$1\r\na\r\n*1\r\n-ERR x\r\n");
  ASSERT_EQ(r.elements.size(), 2u);
  ASSERT_EQ(r.elements[0].elements.size(), 2u);
  EXPECT_EQ(r.elements[0].elements[0].integer, 1);
  EXPECT_EQ(r.elements[0].elements[1].str, "a");
  EXPECT_TRUE(r.elements[1].elements[0].is_error());
  r = ParseOne("%2\r\n+a\r\n:1\r\n+b\r\n:2\r\n");
  EXPECT_EQ(r.type, ReplyType::kArray);
  ASSERT_EQ(r.elements.size(), 4u);
  EXPECT_EQ(r.elements[2].str, "b");
  EXPECT_EQ(ParseOne("~2\r\n+a\r\n+b\r\n").elements.size(), 2u);
  EXPECT_EQ(ParseOne(">2\r\n+a\r\n+b\r\n").type, ReplyType::kPush);
  EXPECT_EQ(ParseOne(">2\r\n+a\r\n+b\r\n").elements.size(), 2u);
  r = ParseOne("|1\r\n+ttl\r\n:3600\r\n+OK\r\n");
  EXPECT_EQ(r.type, ReplyType::kSimpleString);
  EXPECT_EQ(r.str, "OK");
  r = ParseOne("*2\r\n|1\r\n+ttl\r\n:3600\r\n:1\r\n:2\r\n");
  ASSERT_EQ(r.elements.size(), 2u);
  EXPECT_EQ(r.elements[1].integer, 2);
}

TEST(ParseReplyTest, EveryPrefixIsIncomplete) {
  for (const std::string& reply : AllReplies()) {
    for (size_t n = 0; n < reply.size(); ++n) {
      EXPECT_EQ(ParseStatusOf(reply.substr(0, n)), ParseStatus::kIncomplete)
          << reply << " prefix " << n;
    }
  }
}

TEST(ParseReplyTest, ConsumesOnlyTheFirstReply) {
  Reply r;
  size_t consumed = 0;
  ASSERT_EQ(ParseReply("$3\r\nfoo\r\n+OK\r\n", &consumed, &r), ParseStatus::kOk);
  EXPECT_EQ(consumed, 9u);
  EXPECT_EQ(r.str, "foo");
}

TEST(ParseReplyTest, ErrorMessageQuotesTheHeader) {
  Reply r;
  size_t consumed = 0;
  std::string error;
  ASSERT_EQ(ParseReply("$-7\r\n", &consumed, &r, &error), ParseStatus::kProtocolError);
  EXPECT_EQ(error, "protocol error: invalid reply header '$-7'");
  ASSERT_EQ(ParseReply(std::string("\x01zz\r\n"), &consumed, &r, &error),
            ParseStatus::kProtocolError);
  EXPECT_EQ(error, "protocol error: invalid reply header '\\x01zz'");
}

}  // namespace
}  // namespace dfbench::protocol
