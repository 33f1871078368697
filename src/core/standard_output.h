// Standard output as a command's payload goes out: written through one function that remembers
// why a write failed, and checked once at the end of main, as coreutils' close_stdout checks it,
// so that a full disk or a bad descriptor behind `> file` ends in an error exit instead of a
// result silently lost.
#pragma once

#include <string_view>

namespace dfbench::core {

// Writes `text` to stdout and flushes it (a payload is out before the notes that follow it); a
// write that fails is remembered, with its errno, for FlushStdout.
void WriteStdout(std::string_view text);

// The last step of main: flushes std::cout and stdout. When that fails, or an earlier write
// did, prints "dfbench: cannot write to standard output: <reason>" on stderr and returns
// kFailure, unless `code` already says the command failed; otherwise returns `code`.
int FlushStdout(int code);

}  // namespace dfbench::core
