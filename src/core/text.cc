#include "core/text.h"

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
