#include "core/text.h"

namespace dfbench::core {

std::string Trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  const size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(kSpace) - b + 1));
}

}  // namespace dfbench::core
