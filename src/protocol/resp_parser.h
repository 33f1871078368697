// RESP reply parsing. Two tools over one set of rules:
//  - RespScanner, for the load path: incremental and zero-copy, it only reports the kind of
//    each complete top-level reply; payload bytes are skipped, never copied.
//  - ParseReply, for control traffic and tests: materialises one whole Reply.
// Both accept every RESP2 type and tolerate RESP3 (_ # , ( = ! % ~ > and |attribute). They
// agree, byte for byte, on where replies end and on what is a protocol error. An attribute
// annotates the value after it and is not a reply itself; a top-level push ('>') is reported
// as one, of kind kPush (out-of-band: the caller decides it answers no request). Streamed RESP3
// types ($?, *?) are not accepted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "protocol/reply.h"

namespace dfbench::protocol {

// The summary of one complete top-level reply.
enum class ReplyKind : uint8_t {
  kOk,     // anything that is not an error or a null (arrays count as kOk whatever they hold)
  kError,  // '-' simple error or RESP3 '!' blob error
  kNull,   // $-1, *-1 or RESP3 '_' (a GET miss)
  kPush,   // RESP3 '>': out-of-band data (invalidations, pub/sub messages), not a command's reply
};

enum class ParseStatus : uint8_t { kOk, kIncomplete, kProtocolError };

struct ScanResult {
  size_t consumed = 0;                    // length of the prefix of the input that was scanned
  ParseStatus status = ParseStatus::kOk;  // kOk or kProtocolError, never kIncomplete
};

// A header line ("$5\r\n", "+OK\r\n", "-ERR ...\r\n") may hold at most this many bytes,
// CRLF included; a longer one is a protocol error. Callers' buffers must hold at least this.
inline constexpr size_t kMaxLineBytes = 64 * 1024;
// Aggregates (arrays, maps, sets, pushes, attributes) nest at most this deep.
inline constexpr int kMaxDepth = 64;

namespace detail {
// What a reply scanner says about the stream faults its shared loop detects.
struct StreamFaultMessages {
  const char* blob_trailer;    // a payload not followed by CRLF
  const char* line_too_long;   // no line end within kMaxLineBytes
  const char* malformed_line;  // a line its protocol cannot parse at all
};
// The scanning loop RespScanner and MemcacheScanner share (resp_parser_inl.h).
template <class Protocol, class OnReply>
ScanResult ScanReplies(Protocol& scanner, std::string_view data, OnReply& on_reply);
}  // namespace detail

// Scans the reply stream of one connection. Feed it successive chunks with Scan(); it reports
// each complete top-level reply through the callback. State (the rest of a bulk payload, the
// element counts of open aggregates) persists between calls, so a reply may be split anywhere.
class RespScanner {
 public:
  // Scans `data` and calls `on_reply(ReplyKind kind, std::string_view error_text)` once per
  // complete top-level reply, in order. `error_text` is the message of an error reply when the
  // whole reply lies inside `data` (always so for '-' errors), else empty; it points into
  // `data` and is valid during the callback only.
  // Returns how many bytes were consumed: everything, except an incomplete header line at the
  // end, which the caller keeps and presents again, followed by more bytes, on the next call.
  // After a protocol error the stream is unusable: every later call fails; see error().
  template <class OnReply>
  ScanResult Scan(std::string_view data, OnReply&& on_reply);

  // Why the stream failed; empty while it has not.
  const std::string& error() const { return error_; }
  // True when no reply is partly scanned (a fresh or reply-aligned stream).
  bool idle() const { return depth_ == 0 && blob_remaining_ == 0; }
  // Forgets all state, including a failure (for a reconnected stream).
  void Reset() { *this = RespScanner(); }

 private:
  template <class Protocol, class OnReply>
  friend ScanResult detail::ScanReplies(Protocol&, std::string_view, OnReply&);
  static constexpr detail::StreamFaultMessages kFaults = {"bulk payload not followed by CRLF",
                                                          "header line too long",
                                                          "header line without type byte or CR"};
  // A header line is a type byte, its text, then CRLF.
  static bool WellFormed(const char* line, const char* lf) {
    return lf - line >= 2 && lf[-1] == '\r';
  }
  bool OnLine(const char* line, const char* lf, const char* end, bool* done) {
    return OnHeader(*line, std::string_view(line + 1, static_cast<size_t>(lf - 2 - line)), lf + 1,
                    end, done);
  }
  bool BlobDone() { return ValueDone(); }
  // Handles one header line; false on a protocol error. Sets *done when a top-level reply
  // ended with this line.
  bool OnHeader(char type, std::string_view line, const char* payload, const char* end, bool* done);
  bool Push(uint64_t elements, bool attribute);
  bool ValueDone();  // true when the value that just ended completed a top-level reply
  // Cold paths, out of line: record why the stream failed.
  bool SetError(std::string message);  // returns false
  bool BadHeader(char type, std::string_view line);
  ScanResult Fail(size_t consumed, const char* message);

  uint64_t blob_remaining_ = 0;  // bytes of the current bulk payload plus its CRLF still due
  int depth_ = 0;
  uint64_t attribute_mask_ = 0;  // bit d set: frame d is an attribute, not a value
  ReplyKind kind_ = ReplyKind::kOk;
  std::string_view error_text_;
  std::string error_;
  uint64_t remaining_[kMaxDepth] = {};  // elements still due in each open aggregate
};

// The summary RespScanner reports of a reply that ParseReply materialised (they agree on it).
inline ReplyKind KindOf(const Reply& reply) {
  if (reply.is_error()) return ReplyKind::kError;
  if (reply.is_null()) return ReplyKind::kNull;
  return reply.type == ReplyType::kPush ? ReplyKind::kPush : ReplyKind::kOk;
}

// Parses the first reply in `data`. kOk: *out holds it and *consumed its length. kIncomplete:
// more bytes are needed. kProtocolError: `data` cannot start with a valid reply; *error (if
// not null) says why. A leading attribute is parsed and dropped, as are nested ones.
ParseStatus ParseReply(std::string_view data, size_t* consumed, Reply* out,
                       std::string* error = nullptr);

}  // namespace dfbench::protocol

#include "protocol/resp_parser_inl.h"  // IWYU pragma: export
