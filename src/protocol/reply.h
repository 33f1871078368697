// A fully materialised RESP reply, for control traffic and tests (the load path never builds
// these; it uses the zero-copy scanner in resp_parser.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dfbench::protocol {

enum class ReplyType : uint8_t {
  kSimpleString,  // +OK
  kError,         // -ERR ...   (RESP3 blob error '!' maps here too)
  kInteger,       // :1
  kBulkString,    // $3 foo     (RESP3 verbatim '=' maps here too, without its "txt:" prefix)
  kNull,          // $-1, *-1, RESP3 '_'
  kArray,         // *N         (RESP3 map '%' and set '~' flatten into arrays)
  kPush,          // RESP3 '>'  (out-of-band data; its elements as an array's)
  kDouble,        // RESP3 ','  (text kept in `str`)
  kBoolean,       // RESP3 '#'  (integer 0/1)
  kBigNumber,     // RESP3 '('  (text kept in `str`)
};

struct Reply {
  ReplyType type = ReplyType::kNull;
  std::string str;              // simple string, error, bulk string, double, big number
  int64_t integer = 0;          // integer, boolean
  std::vector<Reply> elements;  // array, map (key, value, key, value...), set, push

  bool is_error() const { return type == ReplyType::kError; }
  bool is_null() const { return type == ReplyType::kNull; }
};

}  // namespace dfbench::protocol
