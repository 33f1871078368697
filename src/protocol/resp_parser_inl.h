// Inline part of resp_parser.h: the scanner runs per reply on the load path, so its loop and
// the helpers it shares with the other parsers live here, where the compiler can inline them.
// Include resp_parser.h, not this file.
#pragma once

#include <cstring>

#include "protocol/resp_parser.h"

namespace dfbench::protocol {
namespace detail {

// Quotes at most `max` bytes of untrusted input for an error message, escaping non-printables.
std::string Quote(std::string_view s, size_t max = 40);

// A length or count: "-1" (returned as -1) or 1..18 decimal digits. False when malformed.
inline bool ParseLength(std::string_view s, int64_t* out) {
  if (s.size() == 2 && s[0] == '-' && s[1] == '1') {
    *out = -1;
    return true;
  }
  if (s.empty() || s.size() > 18) return false;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

// An integer reply: optional '-', then 1..19 digits, within int64. False when malformed.
inline bool ParseInteger(std::string_view s, int64_t* out) {
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  if (s.empty() || s.size() > 19) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (v > limit) return false;
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

// Skips bytes of a blob whose remaining length (payload plus CRLF) is `*remaining`, checking
// the CRLF as it passes. Returns false when the trailer is not CRLF.
inline bool SkipBlob(const char** p, const char* end, uint64_t* remaining) {
  const uint64_t rem = *remaining;
  const size_t avail = static_cast<size_t>(end - *p);
  const size_t take = rem < avail ? static_cast<size_t>(rem) : avail;
  // The CR sits at relative offset rem-2, the LF at rem-1.
  if (rem >= 2 && rem - 2 < take && (*p)[rem - 2] != '\r') return false;
  if (rem - 1 < take && (*p)[rem - 1] != '\n') return false;
  *p += take;
  *remaining = rem - take;
  return true;
}

// Finds the LF ending the line that starts at `p`, or nullptr when the line is incomplete;
// then sets *too_long if no LF can come within kMaxLineBytes.
inline const char* FindLineEnd(const char* p, const char* end, bool* too_long) {
  const size_t avail = static_cast<size_t>(end - p);
  const size_t window = avail < kMaxLineBytes ? avail : kMaxLineBytes;
  const char* lf = static_cast<const char*>(std::memchr(p, '\n', window));
  *too_long = lf == nullptr && avail >= kMaxLineBytes;
  return lf;
}

// Skips the payload bytes the protocol announced (checking their CRLF), cuts the rest into
// lines, hands each to the protocol and reports each reply it completes. `Protocol` provides
// kFaults (its messages for the stream faults), WellFormed(line, lf) (may the line be parsed at
// all), OnLine(line, lf, end, &done) (false on a protocol error) and BlobDone() (whether the
// payload that just ended completed a reply), and keeps blob_remaining_, kind_, error_text_.
template <class Protocol, class OnReply>
ScanResult ScanReplies(Protocol& scanner, std::string_view data, OnReply& on_reply) {
  if (!scanner.error_.empty()) return {0, ParseStatus::kProtocolError};
  const char* const begin = data.data();
  const char* const end = begin + data.size();
  const char* p = begin;
  // The error text is read for an error reply only: the scanner has just written it in two
  // halves, and reading it whole for every reply would wait on those stores.
  auto report = [&] {
    const ReplyKind kind = scanner.kind_;
    on_reply(kind, kind == ReplyKind::kError ? scanner.error_text_ : std::string_view());
  };
  while (p < end) {
    if (scanner.blob_remaining_ > 0) {
      if (!SkipBlob(&p, end, &scanner.blob_remaining_)) {
        return scanner.Fail(static_cast<size_t>(p - begin), Protocol::kFaults.blob_trailer);
      }
      if (scanner.blob_remaining_ > 0) break;  // the payload goes on in the next chunk
      if (scanner.BlobDone()) report();
      continue;
    }
    bool too_long = false;
    const char* lf = FindLineEnd(p, end, &too_long);
    if (lf == nullptr) {
      if (too_long)
        return scanner.Fail(static_cast<size_t>(p - begin), Protocol::kFaults.line_too_long);
      break;  // the caller keeps the partial line
    }
    if (!Protocol::WellFormed(p, lf)) {
      return scanner.Fail(static_cast<size_t>(p - begin), Protocol::kFaults.malformed_line);
    }
    bool done = false;
    if (!scanner.OnLine(p, lf, end, &done)) {
      return {static_cast<size_t>(p - begin), ParseStatus::kProtocolError};
    }
    p = lf + 1;
    if (done) report();
  }
  return {static_cast<size_t>(p - begin), ParseStatus::kOk};
}

}  // namespace detail

template <class OnReply>
ScanResult RespScanner::Scan(std::string_view data, OnReply&& on_reply) {
  return detail::ScanReplies(*this, data, on_reply);
}

inline bool RespScanner::ValueDone() {
  while (depth_ > 0) {
    const int top = depth_ - 1;
    if (--remaining_[top] > 0) return false;
    depth_ = top;
    // A finished attribute is not a value: its parent still waits for the value it annotates.
    if (attribute_mask_ & (uint64_t{1} << top)) return false;
  }
  return true;
}

inline bool RespScanner::Push(uint64_t elements, bool attribute) {
  if (depth_ == kMaxDepth) return SetError("protocol error: aggregates nested too deep");
  remaining_[depth_] = elements;
  const uint64_t bit = uint64_t{1} << depth_;
  attribute_mask_ = attribute ? attribute_mask_ | bit : attribute_mask_ & ~bit;
  ++depth_;
  return true;
}

inline bool RespScanner::OnHeader(char type, std::string_view line, const char* payload,
                                  const char* end, bool* done) {
  if (depth_ == 0 && type != '|') {
    kind_ = ReplyKind::kOk;
    error_text_ = {};
  }
  switch (type) {
    case '+':
    case ',':  // RESP3 double
    case '(':  // RESP3 big number
      break;
    case '-':
      if (depth_ == 0) {
        kind_ = ReplyKind::kError;
        error_text_ = line;
      }
      break;
    case '$':
    case '!':    // RESP3 blob error
    case '=': {  // RESP3 verbatim string
      int64_t len;
      if (!detail::ParseLength(line, &len) || (len < 0 && type != '$')) {
        return BadHeader(type, line);
      }
      if (len < 0) {
        if (depth_ == 0) kind_ = ReplyKind::kNull;
        break;
      }
      if (depth_ == 0 && type == '!') {
        kind_ = ReplyKind::kError;
        // Only when the reply also ends in this chunk: the view must be valid when reported.
        if (end - payload >= len + 2) {
          error_text_ = std::string_view(payload, static_cast<size_t>(len));
        }
      }
      blob_remaining_ = static_cast<uint64_t>(len) + 2;
      return true;  // the value ends with its payload
    }
    case '*':
    case '%':    // RESP3 map
    case '~':    // RESP3 set
    case '>':    // RESP3 push
    case '|': {  // RESP3 attribute
      int64_t count;
      if (!detail::ParseLength(line, &count) || (count < 0 && type != '*')) {
        return BadHeader(type, line);
      }
      if (count < 0) {
        if (depth_ == 0) kind_ = ReplyKind::kNull;
        break;
      }
      if (depth_ == 0 && type == '>') kind_ = ReplyKind::kPush;
      const bool attribute = type == '|';
      const uint64_t elements = static_cast<uint64_t>(count) * (type == '%' || attribute ? 2 : 1);
      if (elements > 0) return Push(elements, attribute);
      if (attribute) return true;  // an empty attribute annotates the value that follows
      break;
    }
    case ':': {
      int64_t ignored;
      if (!detail::ParseInteger(line, &ignored)) return BadHeader(type, line);
      break;
    }
    case '_':  // RESP3 null
      if (!line.empty()) return BadHeader(type, line);
      if (depth_ == 0) kind_ = ReplyKind::kNull;
      break;
    case '#':  // RESP3 boolean
      if (line != "t" && line != "f") return BadHeader(type, line);
      break;
    default:
      return BadHeader(type, line);
  }
  *done = ValueDone();
  return true;
}

}  // namespace dfbench::protocol
