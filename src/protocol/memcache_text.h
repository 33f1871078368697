// The memcached text protocol on the load path: request encoding and an incremental,
// zero-copy reply scanner with the same ReplyKind summary as RespScanner.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/resp_parser.h"

namespace dfbench::protocol {

// Appends "set <key> 0 <exptime> <bytes>\r\n<data>\r\n" (flags 0). Allocates only when *out
// has to grow.
void AppendMemcacheSet(std::string* out, std::string_view key, std::string_view data,
                       std::chrono::seconds exptime = std::chrono::seconds(0));

// Appends "get <key>\r\n".
void AppendMemcacheGet(std::string* out, std::string_view key);

// The <bytes> of a "VALUE <key> <flags> <bytes> [<cas>]" line, or -1 when it is malformed.
int64_t MemcacheValueBytes(std::string_view line);

// Scans the reply stream of one memcached connection, like RespScanner. Replies:
//   STORED, NOT_STORED, EXISTS, DELETED, TOUCHED, OK, RESET, VERSION x, <number>  -> kOk
//   VALUE <key> <flags> <bytes> [<cas>]\r\n<data>\r\n ... END                    -> kOk (hit)
//   STAT <name> <value> ... END                                                   -> kOk
//   END alone, NOT_FOUND                                                          -> kNull (miss)
//   ERROR, CLIENT_ERROR <msg>, SERVER_ERROR <msg> (also inside a VALUE list)      -> kError
// Any other line is a protocol error. A line may hold at most kMaxLineBytes bytes.
class MemcacheScanner {
 public:
  // Same contract as RespScanner::Scan: `on_reply(ReplyKind, std::string_view error_line)`
  // per complete reply (error_line is the whole error line, pointing into `data`); returns the
  // bytes consumed, all but an incomplete line that the caller presents again.
  template <class OnReply>
  ScanResult Scan(std::string_view data, OnReply&& on_reply);

  const std::string& error() const { return error_; }
  bool idle() const { return !in_list_ && blob_remaining_ == 0; }
  void Reset() { *this = MemcacheScanner(); }

 private:
  template <class Protocol, class OnReply>
  friend ScanResult detail::ScanReplies(Protocol&, std::string_view, OnReply&);
  static constexpr detail::StreamFaultMessages kFaults = {"VALUE data block not followed by CRLF",
                                                          "reply line too long", "line without CR"};
  static bool WellFormed(const char* line, const char* lf) { return lf != line && lf[-1] == '\r'; }
  bool OnLine(const char* line, const char* lf, const char* /*end*/, bool* done) {
    return OnLine(std::string_view(line, static_cast<size_t>(lf - 1 - line)), done);
  }
  bool BlobDone() { return false; }  // a VALUE list goes on until END
  // Classifies one line (without CRLF); false on a protocol error; *done when a reply ended.
  bool OnLine(std::string_view line, bool* done);
  ScanResult Fail(size_t consumed, std::string message);

  uint64_t blob_remaining_ = 0;  // bytes of a VALUE data block plus its CRLF still due
  bool in_list_ = false;         // inside a VALUE/STAT list that END closes
  ReplyKind kind_ = ReplyKind::kOk;
  std::string_view error_text_;
  std::string error_;
};

template <class OnReply>
ScanResult MemcacheScanner::Scan(std::string_view data, OnReply&& on_reply) {
  return detail::ScanReplies(*this, data, on_reply);
}

}  // namespace dfbench::protocol
