#include "protocol/resp_parser.h"

#include <algorithm>

namespace dfbench::protocol {
namespace detail {

std::string Quote(std::string_view s, size_t max) {
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (s.size() > max) out += "...";
  return out + "'";
}

}  // namespace detail

namespace {

std::string HeaderMessage(char type, std::string_view line) {
  std::string text(1, type);
  text.append(line);
  return "protocol error: invalid reply header " + detail::Quote(text);
}

// A recursive-descent parser over one buffer; the rules mirror RespScanner::OnHeader.
class Parser {
 public:
  Parser(std::string_view data, std::string* error) : data_(data), error_(error) {}

  size_t pos() const { return pos_; }

  // The parser's hot path: one loop over the reply types, kept whole on purpose.
  // NOLINTNEXTLINE(readability-function-size)
  ParseStatus Value(int depth, Reply* out) {
    while (true) {
      const char* const p = data_.data() + pos_;
      const char* const end = data_.data() + data_.size();
      bool too_long = false;
      const char* lf = detail::FindLineEnd(p, end, &too_long);
      if (lf == nullptr) {
        return too_long ? Error("protocol error: header line too long") : ParseStatus::kIncomplete;
      }
      if (lf - p < 2 || lf[-1] != '\r') {
        return Error("protocol error: header line without type byte or CR");
      }
      const char type = *p;
      const std::string_view line(p + 1, static_cast<size_t>(lf - 2 - p));
      pos_ = static_cast<size_t>(lf + 1 - data_.data());
      int64_t n = 0;
      switch (type) {
        case '+':
          return Text(ReplyType::kSimpleString, line, out);
        case '-':
          return Text(ReplyType::kError, line, out);
        case ',':
          return Text(ReplyType::kDouble, line, out);
        case '(':
          return Text(ReplyType::kBigNumber, line, out);
        case ':':
          if (!detail::ParseInteger(line, &n)) return Error(HeaderMessage(type, line));
          *out = Reply{.type = ReplyType::kInteger, .integer = n};
          return ParseStatus::kOk;
        case '#':
          if (line != "t" && line != "f") return Error(HeaderMessage(type, line));
          *out = Reply{.type = ReplyType::kBoolean, .integer = line == "t" ? 1 : 0};
          return ParseStatus::kOk;
        case '_':
          if (!line.empty()) return Error(HeaderMessage(type, line));
          *out = Reply{};
          return ParseStatus::kOk;
        case '$':
        case '!':
        case '=':
          if (!detail::ParseLength(line, &n) || (n < 0 && type != '$')) {
            return Error(HeaderMessage(type, line));
          }
          if (n < 0) {
            *out = Reply{};
            return ParseStatus::kOk;
          }
          return Blob(type, static_cast<size_t>(n), out);
        case '*':
        case '%':
        case '~':
        case '>':
        case '|': {
          if (!detail::ParseLength(line, &n) || (n < 0 && type != '*')) {
            return Error(HeaderMessage(type, line));
          }
          if (n < 0) {
            *out = Reply{};
            return ParseStatus::kOk;
          }
          const uint64_t elements = static_cast<uint64_t>(n) * (type == '%' || type == '|' ? 2 : 1);
          if (elements > 0 && depth == kMaxDepth) {
            return Error("protocol error: aggregates nested too deep");
          }
          if (type == '|') {
            // An attribute annotates the value that follows it: parse and drop it.
            for (uint64_t i = 0; i < elements; ++i) {
              Reply ignored;
              if (auto st = Value(depth + 1, &ignored); st != ParseStatus::kOk) return st;
            }
            continue;
          }
          *out = Reply{.type = type == '>' ? ReplyType::kPush : ReplyType::kArray};
          // Each element takes at least 3 bytes: never reserve more than the input can hold.
          out->elements.reserve(std::min<uint64_t>(elements, (data_.size() - pos_) / 3));
          for (uint64_t i = 0; i < elements; ++i) {
            out->elements.emplace_back();
            if (auto st = Value(depth + 1, &out->elements.back()); st != ParseStatus::kOk) {
              return st;
            }
          }
          return ParseStatus::kOk;
        }
        default:
          return Error(HeaderMessage(type, line));
      }
    }
  }

 private:
  static ParseStatus Text(ReplyType type, std::string_view line, Reply* out) {
    *out = Reply{.type = type, .str = std::string(line)};
    return ParseStatus::kOk;
  }

  // The payload of a bulk string, blob error or verbatim string. Like the scanner, it checks
  // each trailer byte as soon as it is present.
  ParseStatus Blob(char type, size_t len, Reply* out) {
    const size_t avail = data_.size() - pos_;
    if (avail > len && data_[pos_ + len] != '\r') {
      return Error("protocol error: bulk payload not followed by CRLF");
    }
    if (avail > len + 1 && data_[pos_ + len + 1] != '\n') {
      return Error("protocol error: bulk payload not followed by CRLF");
    }
    if (avail < len + 2) return ParseStatus::kIncomplete;
    std::string_view payload = data_.substr(pos_, len);
    pos_ += len + 2;
    if (type == '=' && payload.size() >= 4 && payload[3] == ':') payload.remove_prefix(4);
    *out = Reply{.type = type == '!' ? ReplyType::kError : ReplyType::kBulkString,
                 .str = std::string(payload)};
    return ParseStatus::kOk;
  }

  ParseStatus Error(std::string message) {
    if (error_ != nullptr) *error_ = std::move(message);
    return ParseStatus::kProtocolError;
  }

  std::string_view data_;
  std::string* error_;
  size_t pos_ = 0;
};

}  // namespace

bool RespScanner::SetError(std::string message) {
  error_ = std::move(message);
  return false;
}

bool RespScanner::BadHeader(char type, std::string_view line) {
  return SetError(HeaderMessage(type, line));
}

ScanResult RespScanner::Fail(size_t consumed, const char* message) {
  SetError(std::string("protocol error: ") + message);
  return {consumed, ParseStatus::kProtocolError};
}

ParseStatus ParseReply(std::string_view data, size_t* consumed, Reply* out, std::string* error) {
  Parser parser(data, error);
  Reply reply;
  const ParseStatus status = parser.Value(0, &reply);
  if (status == ParseStatus::kOk) {
    *consumed = parser.pos();
    *out = std::move(reply);
  }
  return status;
}

}  // namespace dfbench::protocol
