#include "protocol/memcache_text.h"

#include <gtest/gtest.h>

#include <random>

#include "support/chunked_scan.h"

namespace dfbench::protocol {
namespace {

using Scanned = testing::ScannedReply;
using ScanOutcome = testing::ChunkedScan;

// The whole stream at once, or in chunks of the given sizes.
ScanOutcome Scan(std::string_view data, const std::vector<size_t>& sizes = {}) {
  return testing::ScanInChunks<MemcacheScanner>(data, sizes);
}

TEST(MemcacheEncodeTest, ByteExact) {
  std::string out;
  AppendMemcacheSet(&out, "key:1", "abc");
  EXPECT_EQ(out, "set key:1 0 0 3\r\nabc\r\n");
  out.clear();
  AppendMemcacheSet(&out, "k", std::string(256, 'x'), std::chrono::seconds(3600));
  EXPECT_EQ(out, "set k 0 3600 256\r\n" + std::string(256, 'x') + "\r\n");
  out.clear();
  AppendMemcacheSet(&out, "k", "");
  EXPECT_EQ(out, "set k 0 0 0\r\n\r\n");
  out.clear();
  AppendMemcacheGet(&out, "key:1");
  AppendMemcacheGet(&out, "key:2");
  EXPECT_EQ(out, "get key:1\r\nget key:2\r\n");
}

TEST(MemcacheEncodeTest, NoGrowthWithCapacity) {
  std::string out;
  out.reserve(4096);
  const char* data = out.data();
  for (int i = 0; i < 10; ++i) {
    AppendMemcacheSet(&out, "key:00000001", std::string_view("0123456789abcdef0123456789"));
    AppendMemcacheGet(&out, "key:00000001");
  }
  EXPECT_EQ(out.data(), data);
}

TEST(MemcacheScannerTest, ReplyKinds) {
  const std::vector<std::pair<std::string, Scanned>> cases = {
      {"STORED\r\n", {ReplyKind::kOk, ""}},
      {"NOT_STORED\r\n", {ReplyKind::kOk, ""}},
      {"EXISTS\r\n", {ReplyKind::kOk, ""}},
      {"DELETED\r\n", {ReplyKind::kOk, ""}},
      {"TOUCHED\r\n", {ReplyKind::kOk, ""}},
      {"OK\r\n", {ReplyKind::kOk, ""}},
      {"RESET\r\n", {ReplyKind::kOk, ""}},
      {"VERSION 1.6.18\r\n", {ReplyKind::kOk, ""}},
      {"42\r\n", {ReplyKind::kOk, ""}},
      {"NOT_FOUND\r\n", {ReplyKind::kNull, ""}},
      {"END\r\n", {ReplyKind::kNull, ""}},
      {"VALUE k 0 3\r\nabc\r\nEND\r\n", {ReplyKind::kOk, ""}},
      {"VALUE k 5 0 77\r\n\r\nEND\r\n", {ReplyKind::kOk, ""}},
      {"VALUE a 0 1\r\n1\r\nVALUE b 0 2\r\n22\r\nEND\r\n", {ReplyKind::kOk, ""}},
      {"STAT pid 1\r\nSTAT uptime 5\r\nEND\r\n", {ReplyKind::kOk, ""}},
      {"ERROR\r\n", {ReplyKind::kError, "ERROR"}},
      {"CLIENT_ERROR bad data chunk\r\n", {ReplyKind::kError, "CLIENT_ERROR bad data chunk"}},
      {"SERVER_ERROR out of memory\r\n", {ReplyKind::kError, "SERVER_ERROR out of memory"}},
      {"VALUE k 0 1\r\na\r\nSERVER_ERROR oops\r\n", {ReplyKind::kError, "SERVER_ERROR oops"}},
  };
  std::string stream;
  std::vector<Scanned> expected;
  for (const auto& [bytes, scanned] : cases) {
    SCOPED_TRACE(bytes);
    const ScanOutcome outcome = Scan(bytes);
    EXPECT_FALSE(outcome.failed) << outcome.error;
    ASSERT_EQ(outcome.replies.size(), 1u);
    EXPECT_EQ(outcome.replies[0], scanned);
    stream += bytes;
    expected.push_back(scanned);
  }
  EXPECT_EQ(Scan(stream).replies, expected);
}

TEST(MemcacheScannerTest, EverySplitPointAndRandomChunks) {
  // Data blocks that look like reply lines must be skipped by length, not read as lines.
  const std::string stream =
      "STORED\r\n"
      "VALUE key:1 0 11\r\nEND\r\nSTORED\r\nEND\r\n"
      "END\r\n"
      "VALUE k 0 5 99\r\nhello\r\nEND\r\n"
      "NOT_FOUND\r\n"
      "CLIENT_ERROR bad\r\n"
      "STAT a b\r\nEND\r\n";
  const std::vector<ReplyKind> kinds = {ReplyKind::kOk, ReplyKind::kOk,   ReplyKind::kNull,
                                        ReplyKind::kOk, ReplyKind::kNull, ReplyKind::kError,
                                        ReplyKind::kOk};
  auto kinds_of = [](const ScanOutcome& o) {
    std::vector<ReplyKind> k;
    for (const auto& r : o.replies) k.push_back(r.kind);
    return k;
  };
  ASSERT_EQ(kinds_of(Scan(stream)), kinds);
  for (size_t split = 0; split <= stream.size(); ++split) {
    const ScanOutcome two = Scan(stream, {split});
    ASSERT_FALSE(two.failed) << "split at " << split << ": " << two.error;
    EXPECT_EQ(kinds_of(two), kinds) << "split at " << split;
    // Error lines are whole when reported.
    EXPECT_EQ(two.replies.at(5).error_text, "CLIENT_ERROR bad");
  }
  EXPECT_EQ(kinds_of(Scan(stream, std::vector<size_t>(stream.size(), 1))), kinds);
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> size(0, 20);
  for (int round = 0; round < 300; ++round) {
    std::vector<size_t> sizes;
    for (size_t total = 0; total < stream.size(); total += sizes.back()) sizes.push_back(size(rng));
    EXPECT_EQ(kinds_of(Scan(stream, sizes)), kinds);
  }
}

TEST(MemcacheScannerTest, BigValueAcrossChunksIsSkippedNotBuffered) {
  const std::string payload(1 << 20, 'v');
  const std::string stream = std::string("VALUE big 0 ") + std::to_string(payload.size()) + "\r\n" +
                             payload + "\r\nEND\r\nEND\r\n";
  const ScanOutcome outcome = Scan(stream, std::vector<size_t>(1100, 1000));
  ASSERT_FALSE(outcome.failed) << outcome.error;
  ASSERT_EQ(outcome.replies.size(), 2u);
  EXPECT_EQ(outcome.replies[0].kind, ReplyKind::kOk);
  EXPECT_EQ(outcome.replies[1].kind, ReplyKind::kNull);
  EXPECT_LT(outcome.max_pending, 32u);
}

TEST(MemcacheScannerTest, IdleBetweenReplies) {
  MemcacheScanner scanner;
  int replies = 0;
  auto count = [&](ReplyKind, std::string_view) { ++replies; };
  EXPECT_TRUE(scanner.idle());
  EXPECT_EQ(scanner.Scan("VALUE k 0 3\r\nab", count).consumed, 15u);
  EXPECT_FALSE(scanner.idle());
  EXPECT_EQ(scanner.Scan("c\r\nEN", count).consumed, 3u);
  EXPECT_FALSE(scanner.idle());
  EXPECT_EQ(scanner.Scan("END\r\n", count).consumed, 5u);
  EXPECT_TRUE(scanner.idle());
  EXPECT_EQ(replies, 1);
}

TEST(MemcacheScannerTest, MalformedInputIsAProtocolError) {
  const std::vector<std::string> bad = {
      "FOO\r\n",
      "\r\n",
      "STORED\n",
      "stored\r\n",
      "VALUE k 0 abc\r\n",
      "VALUE k\r\n",
      "VALUE k 0\r\n",
      "VALUE k 0 1 2 3\r\n",
      "VALUE k 0 3 \r\n",
      "VALUE k 0 -3\r\n",
      "VALUE k 0 3\r\nabcXY",
      "VALUE k 0 1\r\na\r\nSTORED\r\n",
      "STAT a b\r\nNOT_FOUND\r\n",
      "12a\r\n",
      "ERRORS\r\n",
      std::string(kMaxLineBytes, 'S'),
  };
  for (const std::string& input : bad) {
    SCOPED_TRACE(input.substr(0, 40));
    const ScanOutcome whole = Scan(input);
    EXPECT_TRUE(whole.failed);
    EXPECT_TRUE(whole.error.starts_with("protocol error: ")) << whole.error;
    const size_t chunk = input.size() < 100 ? 1 : 1000;
    EXPECT_TRUE(Scan(input, std::vector<size_t>(input.size(), chunk)).failed);
  }
}

}  // namespace
}  // namespace dfbench::protocol
