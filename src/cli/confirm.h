// Asking before a command changes hosts (installs engines, uploads files, removes directories):
// the plan is printed on stderr and the user answers `Proceed? [y/N]` on stdin, typed on a
// terminal or piped in (`echo y | dfbench destroy --id x`).
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "cli/command.h"

namespace dfbench::cli {

// --yes / -y: do not ask.
void AddYesFlag(CLI::App* sub, bool* yes);

// How long the prompt waits for a line: a person at a terminal gets minutes; a pipe or file
// that has no line ready soon will not get one (a script that forgot --yes must not hang).
inline constexpr std::chrono::minutes kTerminalAnswerWait{15};
inline constexpr std::chrono::seconds kPipedAnswerWait{10};

// Where the prompt reads and writes; the real one is the process's stdin and stderr.
struct PromptIo {
  int in_fd = STDIN_FILENO;
  std::chrono::milliseconds answer_wait = kPipedAnswerWait;
  std::FILE* out = stderr;
};

// Goes on when `yes` or DFBENCH_NO_CONFIRM is true (1, true, ...), after printing `plan` (lines,
// each ending in '\n') on stderr. Otherwise prints the plan, asks, and reads one line from
// stdin: y or yes goes on; any other line is kFailure (exit 1: "not confirmed"); end of input or
// no line within the wait is kUsage (exit 2, advising --yes); Ctrl+C is kInterrupted.
core::Status Confirm(const std::string& plan, bool yes);
// The same with the environment and the input given (tests).
core::Status Confirm(const std::string& plan, bool yes, bool no_confirm_env, const PromptIo& io);

}  // namespace dfbench::cli
