// fmt-style formatting whose engine is compiled once (format.cc) rather than in every file that
// formats: fmt is used header-only (the binary is copied to client hosts, whose libfmt may differ
// or be missing), and each fmt::format call site would otherwise instantiate the whole engine,
// floating point included, which made up most of a file's compile time.
#pragma once

#include <fmt/format.h>

#include <string>

namespace dfbench::core {

// fmt::vformat, out of line.
std::string VFormat(fmt::string_view format, fmt::format_args args);

// As fmt::format, the format string checked at compile time.
template <class... Args>
std::string Format(fmt::format_string<Args...> format, Args&&... args) {
  return VFormat(format, fmt::make_format_args(args...));
}

}  // namespace dfbench::core
