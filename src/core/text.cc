#include "core/text.h"

#include <cstdint>

namespace dfbench::core {
namespace {

constexpr std::string_view kSpace = " \t\r\n";

}  // namespace

std::string Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(kSpace) - b + 1));
}

std::string FirstLine(std::string_view s) {
  const size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_first_of("\r\n", b) - b));
}

std::string WithoutColourCodes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      const size_t end = s.find_first_not_of("0123456789;", i + 2);
      if (end != std::string_view::npos && s[end] == 'm') {
        i = end;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

namespace {

void AppendEscaped(unsigned char byte, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  *out += {'\\', 'x', kHex[byte >> 4], kHex[byte & 0xF]};
}

// Where the escape sequence starting at text[i] (an ESC) ends: the index past it.
size_t EscapeSequenceEnd(std::string_view text, size_t i) {
  if (i + 1 >= text.size()) return text.size();
  const char kind = text[i + 1];
  if (kind == '[') {  // CSI: parameter and intermediate bytes, then a final byte 0x40..0x7E
    for (size_t j = i + 2; j < text.size(); ++j) {
      const auto c = static_cast<unsigned char>(text[j]);
      if (c >= 0x40 && c <= 0x7E) return j + 1;
      if (c < 0x20 || c > 0x3F) return j;  // malformed: stop before what is not part of it
    }
    return text.size();
  }
  if (kind == ']' || kind == 'P' || kind == '_' || kind == '^' || kind == 'X') {
    // OSC, DCS, APC, PM, SOS: a string up to BEL or ST (ESC \\).
    for (size_t j = i + 2; j < text.size(); ++j) {
      if (text[j] == '\a') return j + 1;
      if (text[j] == '\x1b') return j + 1 < text.size() && text[j + 1] == '\\' ? j + 2 : j;
    }
    return text.size();
  }
  return i + 2;  // ESC and one byte (ESC c resets the terminal, ESC 7 saves the cursor, ...)
}

// The length of the valid UTF-8 sequence at text[i] (a byte >= 0x80), 0 when it is not one;
// overlong forms and surrogates are not valid.
size_t Utf8Length(std::string_view text, size_t i) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  size_t len = 0;
  uint32_t cp = 0;
  uint32_t min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string Printable(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1B) {
      i = EscapeSequenceEnd(text, i);
      continue;
    }
    if (c == '\t') {
      out += ' ';
      ++i;
      continue;
    }
    if ((c >= 0x20 && c < 0x7F) || (c == '\n' && keep_newlines)) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    const size_t len = c >= 0x80 ? Utf8Length(text, i) : 0;
    if (len == 0) {  // a C0 control, DEL, or a byte that is not UTF-8
      AppendEscaped(c, &out);
      ++i;
    } else if (len == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      AppendEscaped(static_cast<unsigned char>(text[i + 1]), &out);  // C1: U+0080..U+009F
      i += 2;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::string AsciiUpper(std::string_view s) {
  std::string upper(s);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return upper;
}

std::vector<std::string> SplitWords(std::string_view s) {
  std::vector<std::string> words;
  for (size_t b = s.find_first_not_of(kSpace); b != std::string_view::npos;) {
    const size_t e = s.find_first_of(kSpace, b);
    words.emplace_back(s.substr(b, e == std::string_view::npos ? e : e - b));
    b = s.find_first_not_of(kSpace, e);
  }
  return words;
}

}  // namespace dfbench::core
