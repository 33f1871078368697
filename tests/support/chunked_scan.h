// Feeds a reply stream to a scanner (RespScanner, MemcacheScanner) in chunks, as a connection
// reads it: the bytes one scan leaves unconsumed stay at the front of the buffer for the next.
// Header-only, so that the fuzzer, which links none of the test libraries, shares it.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/resp_parser.h"

namespace dfbench::testing {

struct ScannedReply {
  protocol::ReplyKind kind;
  std::string error_text;  // what the scanner reported; "" when not reported whole
  bool operator==(const ScannedReply&) const = default;
};

struct ChunkedScan {
  std::vector<ScannedReply> replies;
  bool failed = false;         // a scan returned anything but kOk; the feeding stopped there
  std::string error;           // the scanner's message when it failed
  size_t max_pending = 0;      // the most bytes kept back between chunks
  bool overconsumed = false;   // a scan claimed more bytes than it was given
  bool kept_line_end = false;  // a kept-back tail held a '\n' (only a partial line should)
  std::string tail;            // the bytes left unconsumed at the end
};

// Feeds `data` to `scanner` in chunks of `sizes`, then the rest in one.
template <class Scanner>
ChunkedScan ScanInChunks(Scanner& scanner, std::string_view data,
                         const std::vector<size_t>& sizes) {
  ChunkedScan out;
  std::string pending;
  size_t pos = 0;
  for (size_t i = 0; pos < data.size() || i == 0; ++i) {
    const size_t n = i < sizes.size() ? std::min(sizes[i], data.size() - pos) : data.size() - pos;
    pending.append(data.substr(pos, n));
    pos += n;
    const protocol::ScanResult r =
        scanner.Scan(pending, [&](protocol::ReplyKind kind, std::string_view text) {
          out.replies.push_back({kind, std::string(text)});
        });
    out.overconsumed = out.overconsumed || r.consumed > pending.size();
    if (r.status != protocol::ParseStatus::kOk) {
      out.failed = true;
      out.error = scanner.error();
      return out;
    }
    pending.erase(0, r.consumed);
    out.max_pending = std::max(out.max_pending, pending.size());
    out.kept_line_end = out.kept_line_end || pending.find('\n') != std::string::npos;
  }
  out.tail = std::move(pending);
  return out;
}

// The same with a fresh `Scanner`, by default on the whole of `data` at once.
template <class Scanner>
ChunkedScan ScanInChunks(std::string_view data, const std::vector<size_t>& sizes = {}) {
  Scanner scanner;
  return ScanInChunks(scanner, data, sizes);
}

}  // namespace dfbench::testing
