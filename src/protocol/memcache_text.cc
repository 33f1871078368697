#include "protocol/memcache_text.h"

#include <charconv>

namespace dfbench::protocol {
namespace {

void AppendNumber(std::string* out, uint64_t n) {
  char buf[24];
  char* end = std::to_chars(buf, buf + sizeof(buf), n).ptr;
  out->append(buf, static_cast<size_t>(end - buf));
}

bool IsDigits(std::string_view s, size_t max_digits) {
  if (s.empty() || s.size() > max_digits) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// True when `line` is `word` alone or `word` followed by a space and more.
bool IsWord(std::string_view line, std::string_view word) {
  return line.starts_with(word) && (line.size() == word.size() || line[word.size()] == ' ');
}

}  // namespace

int64_t MemcacheValueBytes(std::string_view line) {
  std::string_view fields[4];
  size_t n = 0;
  line.remove_prefix(6);  // "VALUE "
  while (!line.empty()) {
    const size_t space = line.find(' ');
    const std::string_view field = line.substr(0, space);
    if (field.empty() || n == 4) return -1;
    fields[n++] = field;
    if (space == std::string_view::npos) break;
    line.remove_prefix(space + 1);
    if (line.empty()) return -1;  // a trailing space
  }
  if (n < 3 || !IsDigits(fields[1], 10) || !IsDigits(fields[2], 18)) return -1;
  if (n == 4 && !IsDigits(fields[3], 20)) return -1;
  int64_t bytes = 0;
  std::from_chars(fields[2].data(), fields[2].data() + fields[2].size(), bytes);
  return bytes;
}

void AppendMemcacheSet(std::string* out, std::string_view key, std::string_view data,
                       std::chrono::seconds exptime) {
  out->append("set ", 4);
  out->append(key);
  out->append(" 0 ", 3);
  AppendNumber(out, static_cast<uint64_t>(exptime.count() < 0 ? 0 : exptime.count()));
  out->push_back(' ');
  AppendNumber(out, data.size());
  out->append("\r\n", 2);
  out->append(data);
  out->append("\r\n", 2);
}

void AppendMemcacheGet(std::string* out, std::string_view key) {
  out->append("get ", 4);
  out->append(key);
  out->append("\r\n", 2);
}

bool MemcacheScanner::OnLine(std::string_view line, bool* done) {
  error_text_ = {};
  *done = true;
  if (line.starts_with("VALUE ")) {
    const int64_t bytes = MemcacheValueBytes(line);
    if (bytes < 0) {
      Fail(0, "malformed VALUE line " + detail::Quote(line));
      return false;
    }
    blob_remaining_ = static_cast<uint64_t>(bytes) + 2;
    in_list_ = true;
    *done = false;
    return true;
  }
  if (line.starts_with("STAT ")) {
    in_list_ = true;
    *done = false;
    return true;
  }
  if (line == "END") {
    kind_ = in_list_ ? ReplyKind::kOk : ReplyKind::kNull;
    in_list_ = false;
    return true;
  }
  if (IsWord(line, "ERROR") || IsWord(line, "CLIENT_ERROR") || IsWord(line, "SERVER_ERROR")) {
    // An error may also cut a VALUE list short.
    kind_ = ReplyKind::kError;
    error_text_ = line;
    in_list_ = false;
    return true;
  }
  if (in_list_) {
    Fail(0, "unexpected line inside a VALUE/STAT list: " + detail::Quote(line));
    return false;
  }
  if (line == "STORED" || line == "DELETED" || line == "TOUCHED" || line == "OK" ||
      line == "NOT_STORED" || line == "EXISTS" || line == "RESET" || IsWord(line, "VERSION") ||
      IsDigits(line, 20)) {
    kind_ = ReplyKind::kOk;
    return true;
  }
  if (line == "NOT_FOUND") {
    kind_ = ReplyKind::kNull;
    return true;
  }
  Fail(0, "unexpected reply line " + detail::Quote(line));
  return false;
}

ScanResult MemcacheScanner::Fail(size_t consumed, std::string message) {
  error_ = "protocol error: " + std::move(message);
  return {consumed, ParseStatus::kProtocolError};
}

}  // namespace dfbench::protocol
