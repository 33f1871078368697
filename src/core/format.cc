#include "core/format.h"

namespace dfbench::core {

std::string VFormat(fmt::string_view format, fmt::format_args args) {
  return fmt::vformat(format, args);
}

}  // namespace dfbench::core
