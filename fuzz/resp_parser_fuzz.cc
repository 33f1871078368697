// Feeds arbitrary bytes to the reply scanners, whole and in several chunkings, and to
// ParseReply, and checks they agree: the same replies (kinds and error texts), the same verdict
// on protocol errors, the same unconsumed tail. Sanitizers catch the rest.
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/check.h"
#include "protocol/memcache_text.h"
#include "protocol/resp_parser.h"
#include "support/chunked_scan.h"

namespace dfbench::protocol {
namespace {

struct Outcome {
  std::vector<ReplyKind> kinds;
  std::vector<std::string> error_texts;  // one per reply; "" when not reported whole
  bool failed = false;
  std::string tail;  // bytes left unconsumed at the end (when not failed)
};

// Feeds `data` to a fresh scanner in chunks of `sizes` (then the rest).
template <class Scanner>
Outcome Scan(std::string_view data, const std::vector<size_t>& sizes) {
  Scanner scanner;
  const testing::ChunkedScan scan = testing::ScanInChunks(scanner, data, sizes);
  DFB_CHECK(!scan.overconsumed);
  // Only a partial line is ever kept back.
  DFB_CHECK(scan.max_pending < kMaxLineBytes);
  DFB_CHECK(!scan.kept_line_end);
  Outcome out;
  for (const auto& reply : scan.replies) {
    out.kinds.push_back(reply.kind);
    out.error_texts.push_back(reply.error_text);
  }
  out.failed = scan.failed;
  out.tail = scan.tail;
  if (scan.failed) {
    DFB_CHECK(!scan.error.empty());
    // A failed scanner stays failed.
    DFB_CHECK(scanner.Scan("+OK\r\n", [](ReplyKind, std::string_view) {}).status ==
              ParseStatus::kProtocolError);
  }
  return out;
}

Outcome ParseAll(std::string_view data, std::vector<std::string>* error_texts) {
  Outcome out;
  size_t pos = 0;
  while (true) {
    Reply reply;
    size_t consumed = 0;
    std::string error;
    const ParseStatus st = ParseReply(data.substr(pos), &consumed, &reply, &error);
    if (st == ParseStatus::kIncomplete) break;
    if (st == ParseStatus::kProtocolError) {
      DFB_CHECK(!error.empty());
      out.failed = true;
      break;
    }
    DFB_CHECK(consumed > 0 && consumed <= data.size() - pos);
    pos += consumed;
    out.kinds.push_back(KindOf(reply));
    error_texts->push_back(reply.is_error() ? reply.str : "");
  }
  return out;
}

// Chunkings derived from the input itself, so every run of an input is reproducible.
std::vector<std::vector<size_t>> Chunkings(std::string_view data) {
  std::vector<std::vector<size_t>> chunkings;
  if (data.size() <= 2048) chunkings.emplace_back(data.size(), 1);  // byte by byte
  uint64_t seed = data.size();
  for (unsigned char c : data) seed = seed * 131 + c;
  std::mt19937_64 rng(seed);
  for (size_t max_chunk : {size_t{7}, size_t{64}, size_t{1000}}) {
    std::uniform_int_distribution<size_t> size(0, max_chunk);
    std::vector<size_t> sizes;
    for (size_t total = 0; total < data.size(); total += sizes.back()) sizes.push_back(size(rng));
    chunkings.push_back(std::move(sizes));
  }
  return chunkings;
}

void ExpectSameAsWhole(const Outcome& whole, const Outcome& chunked) {
  DFB_CHECK(chunked.failed == whole.failed);
  DFB_CHECK(chunked.kinds == whole.kinds);
  for (size_t i = 0; i < chunked.kinds.size(); ++i) {
    // Chunked scanning reports an error text only when it lies whole in one read.
    if (!chunked.error_texts[i].empty()) {
      DFB_CHECK(chunked.error_texts[i] == whole.error_texts[i]);
    }
  }
  if (!whole.failed) DFB_CHECK(chunked.tail == whole.tail);
}

void CheckResp(std::string_view data) {
  const Outcome whole = Scan<RespScanner>(data, {});
  std::vector<std::string> parsed_texts;
  const Outcome parsed = ParseAll(data, &parsed_texts);
  DFB_CHECK(parsed.kinds == whole.kinds);
  DFB_CHECK(parsed.failed == whole.failed);
  for (size_t i = 0; i < whole.kinds.size(); ++i) {
    DFB_CHECK(whole.kinds[i] == ReplyKind::kError || whole.error_texts[i].empty());
    // With the whole input in one buffer, every error text is reported.
    DFB_CHECK(whole.error_texts[i] == parsed_texts[i]);
  }
  for (const auto& sizes : Chunkings(data))
    ExpectSameAsWhole(whole, Scan<RespScanner>(data, sizes));
}

void CheckMemcache(std::string_view data) {
  const Outcome whole = Scan<MemcacheScanner>(data, {});
  for (size_t i = 0; i < whole.kinds.size(); ++i) {
    DFB_CHECK((whole.kinds[i] == ReplyKind::kError) == !whole.error_texts[i].empty());
  }
  for (const auto& sizes : Chunkings(data)) {
    ExpectSameAsWhole(whole, Scan<MemcacheScanner>(data, sizes));
  }
}

}  // namespace
}  // namespace dfbench::protocol

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  dfbench::protocol::CheckResp(input);
  dfbench::protocol::CheckMemcache(input);
  return 0;
}
