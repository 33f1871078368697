#include "loadgen/monitor_input.h"

#include <cctype>
#include <charconv>
#include <fstream>

namespace dfbench::loadgen {
namespace {

using core::ErrorKind;
using core::Fail;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The escape after a backslash in a double-quoted argument, as redis writes them (sdscatrepr)
// and reads them back (sdssplitargs); *i is on the backslash and ends past the escape.
char Unescape(std::string_view s, size_t* i) {
  const char next = s[*i + 1];
  if (next == 'x' && *i + 3 < s.size() && HexValue(s[*i + 2]) >= 0 && HexValue(s[*i + 3]) >= 0) {
    const char c = static_cast<char>(HexValue(s[*i + 2]) * 16 + HexValue(s[*i + 3]));
    *i += 4;
    return c;
  }
  *i += 2;
  switch (next) {
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'b':
      return '\b';
    case 'a':
      return '\a';
    default:
      return next;
  }
}

bool IsSpace(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// One quoted argument starting at s[*i] (its opening quote); *i ends past the closing quote,
// which must end the argument.
core::Result<std::string> QuotedArg(std::string_view s, size_t* i) {
  const char quote = s[*i];
  std::string arg;
  size_t j = *i + 1;
  while (true) {
    if (j >= s.size()) return Fail(ErrorKind::kUsage, "unterminated quote");
    if (quote == '"' && s[j] == '\\' && j + 1 < s.size()) {
      arg += Unescape(s, &j);
    } else if (quote == '\'' && s[j] == '\\' && j + 1 < s.size() && s[j + 1] == '\'') {
      arg += '\'';
      j += 2;
    } else if (s[j] == quote) {
      ++j;
      break;
    } else {
      arg += s[j++];
    }
  }
  if (j < s.size() && !IsSpace(s[j])) {
    return Fail(ErrorKind::kUsage, "a closing quote must be followed by a space");
  }
  *i = j;
  return arg;
}

}  // namespace

core::Result<std::vector<std::string>> ParseMonitorLine(std::string_view line) {
  std::vector<std::string> args;
  const size_t first = line.find('"');
  if (first == std::string_view::npos) return args;
  size_t i = first;
  while (true) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    if (i == line.size()) break;
    if (line[i] == '"' || line[i] == '\'') {
      auto arg = QuotedArg(line, &i);
      if (!arg) return tl::unexpected(arg.error());
      args.push_back(std::move(*arg));
      continue;
    }
    const size_t start = i;
    while (i < line.size() && !IsSpace(line[i])) ++i;
    args.emplace_back(line.substr(start, i - start));
  }
  return args;
}

core::Result<std::vector<MonitorCommand>> ReadMonitorFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorKind::kUsage, "cannot open monitor input file " + path);
  std::vector<MonitorCommand> commands;
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto args = ParseMonitorLine(line);
    if (!args) {
      return Fail(ErrorKind::kUsage, path + ":" + std::to_string(number) +
                                         ": malformed MONITOR line: " + args.error().message);
    }
    if (args->empty()) continue;
    commands.push_back({.args = std::move(*args), .file_line = number});
  }
  if (in.bad()) return Fail(ErrorKind::kUsage, "cannot read monitor input file " + path);
  if (commands.empty()) {
    return Fail(ErrorKind::kUsage, "no commands found in monitor input file " + path);
  }
  return commands;
}

core::Result<MonitorRef> ParseMonitorPlaceholder(std::string_view text, size_t commands) {
  constexpr std::string_view kPrefix = "__monitor_line";
  if (!text.starts_with(kPrefix)) return MonitorRef{};
  if (commands == 0) {
    return Fail(ErrorKind::kUsage, "'" + std::string(text) + "' needs --monitor-input");
  }
  if (text == kMonitorAnyPlaceholder) return MonitorRef{.kind = MonitorRef::Kind::kAny};
  size_t n = 0;
  const std::string_view digits = text.substr(kPrefix.size());
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  const bool valid = ec == std::errc() && end != digits.data() &&
                     std::string_view(end, digits.data() + digits.size() - end) == "__" && n >= 1 &&
                     n <= commands;
  if (!valid) {
    return Fail(ErrorKind::kUsage, "invalid monitor placeholder '" + std::string(text) +
                                       "' (valid range: __monitor_line1__ to __monitor_line" +
                                       std::to_string(commands) + "__ or __monitor_line@__)");
  }
  return MonitorRef{.kind = MonitorRef::Kind::kLine, .index = n - 1};
}

}  // namespace dfbench::loadgen
