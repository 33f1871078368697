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

}  // namespace dfbench::core
