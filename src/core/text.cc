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

}  // namespace dfbench::core
