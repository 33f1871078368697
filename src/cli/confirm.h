// Asking before a command changes hosts (installs engines, uploads files, removes directories):
// the plan is printed on stderr and the user answers `Proceed? [y/N]` on the terminal.
#pragma once

#include <cstdio>
#include <istream>
#include <string>

#include "cli/command.h"

namespace dfbench::cli {

// --yes / -y: do not ask.
void AddYesFlag(CLI::App* sub, bool* yes);

// Where the prompt reads and writes; the real one is the process's stdin and stderr.
struct PromptIo {
  std::istream* in = nullptr;
  bool terminal = false;  // `in` is a terminal someone can answer on
  std::FILE* out = stderr;
};

// Goes on when `yes` or DFBENCH_NO_CONFIRM is true (1, true, ...), after printing `plan` (lines,
// each ending in '\n') on stderr; without a terminal otherwise, fails at once with kUsage
// (exit 2: "pass --yes"); on a terminal prints the plan, asks, and goes on when the answer is y
// or yes, else kFailure (exit 1; end of input included), or kInterrupted on Ctrl+C.
core::Status Confirm(const std::string& plan, bool yes);
// The same with the environment and the terminal given (tests).
core::Status Confirm(const std::string& plan, bool yes, bool no_confirm_env, const PromptIo& io);

}  // namespace dfbench::cli
