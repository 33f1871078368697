// A capture of redis MONITOR output (--monitor-input), read into the commands it holds, and the
// --command placeholders that name them: __monitor_lineN__ (the N-th command) and
// __monitor_line@__ (one per request, in order or at random: --monitor-pattern).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dfbench::loadgen {

// One captured command: its arguments as the server saw them (escapes undone).
struct MonitorCommand {
  std::vector<std::string> args;  // args[0] is the command name, as captured
  size_t file_line = 0;           // 1-based line of the capture it came from
};

// The arguments of one MONITOR line: everything from its first '"' on, in redis's quoting
// ("..." with \" \\ \n \r \t \b \a \xHH, or '...'). Empty when the line has no '"' (a reply
// such as "OK", not a command). kUsage when the quoting is broken.
core::Result<std::vector<std::string>> ParseMonitorLine(std::string_view line);

// Reads a capture. Lines without a command are skipped, as memtier skips them; a broken line
// is refused as "FILE:LINE: why"; kUsage, too, when the file cannot be read or holds no command.
core::Result<std::vector<MonitorCommand>> ReadMonitorFile(const std::string& path);

// What a --command's text names in the capture.
struct MonitorRef {
  enum class Kind { kNone, kLine, kAny } kind = Kind::kNone;  // kNone: not a placeholder
  size_t index = 0;                                           // kLine: 0-based command index
};

inline constexpr std::string_view kMonitorAnyPlaceholder = "__monitor_line@__";

// Reads `text` as memtier does (memtier_benchmark.cpp, main): kNone unless it starts with
// "__monitor_line"; then __monitor_line@__, or __monitor_lineN__ with N in 1..`commands`, else
// kUsage naming the valid range (or, with no capture, --monitor-input).
core::Result<MonitorRef> ParseMonitorPlaceholder(std::string_view text, size_t commands);

}  // namespace dfbench::loadgen
