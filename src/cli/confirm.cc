#include "cli/confirm.h"

#include <poll.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "core/interrupt.h"
#include "core/time_format.h"

namespace dfbench::cli {
namespace {

bool NoConfirmFromEnv() {
  const char* value = std::getenv("DFBENCH_NO_CONFIRM");
  if (!value) return false;
  return ParseGoBool(value).value_or(false);
}

std::string Trimmed(std::string s) {
  auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
  s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

enum class ReadEnd { kLine, kEndOfInput, kTimedOut, kInterrupted };

// Reads one line (without its '\n') from `fd` within `wait`. A last line without '\n' counts
// as a line. Byte by byte, so that nothing after the answer is taken from the input; polled in
// short slices, so that Ctrl+C is seen while waiting.
ReadEnd ReadLine(int fd, std::chrono::milliseconds wait, std::string* line) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + wait;
  for (;;) {
    if (core::InterruptRequested()) return ReadEnd::kInterrupted;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return ReadEnd::kTimedOut;
    pollfd p{.fd = fd, .events = POLLIN, .revents = 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 100)));
    if (ready < 0 && errno != EINTR) return ReadEnd::kEndOfInput;
    if (ready <= 0) continue;
    char c = 0;
    const ssize_t n = read(fd, &c, 1);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return line->empty() ? ReadEnd::kEndOfInput : ReadEnd::kLine;
    if (c == '\n') return ReadEnd::kLine;
    line->push_back(c);
  }
}

core::Status NoAnswer(const std::string& why) {
  return core::Fail(core::ErrorKind::kUsage, why +
                                                 ": pass --yes (or set DFBENCH_NO_CONFIRM=1) to "
                                                 "go on; nothing changed");
}

}  // namespace

void AddYesFlag(CLI::App* sub, bool* yes) {
  AddBoolFlag(sub, "--yes,-y", yes,
              "Do not ask before changing hosts (also: DFBENCH_NO_CONFIRM=1); without it the "
              "answer is read from stdin (a terminal, or e.g. 'echo y |')");
}

core::Status Confirm(const std::string& plan, bool yes) {
  const bool terminal = isatty(STDIN_FILENO) == 1;
  return Confirm(plan, yes, NoConfirmFromEnv(),
                 PromptIo{.in_fd = STDIN_FILENO,
                          .answer_wait = terminal ? std::chrono::milliseconds(kTerminalAnswerWait)
                                                  : std::chrono::milliseconds(kPipedAnswerWait),
                          .out = stderr});
}

core::Status Confirm(const std::string& plan, bool yes, bool no_confirm_env, const PromptIo& io) {
  std::fputs(plan.c_str(), io.out);
  if (yes || no_confirm_env) return core::Ok();
  std::fputs("Proceed? [y/N] ", io.out);
  std::fflush(io.out);
  std::string answer;
  const ReadEnd end = ReadLine(io.in_fd, io.answer_wait, &answer);
  if (end != ReadEnd::kLine) std::fputs("\n", io.out);
  switch (end) {
    case ReadEnd::kInterrupted:
      return core::Fail(core::ErrorKind::kInterrupted,
                        "interrupted at the prompt; nothing changed");
    case ReadEnd::kEndOfInput:
      return NoAnswer("no answer on stdin (end of input)");
    case ReadEnd::kTimedOut:
      return NoAnswer(
          "no answer on stdin within " +
          core::FormatAge(std::chrono::duration_cast<std::chrono::seconds>(io.answer_wait)));
    case ReadEnd::kLine:
      break;
  }
  answer = Trimmed(answer);
  if (answer == "y" || answer == "yes") return core::Ok();
  return core::Fail(core::ErrorKind::kFailure, "not confirmed; nothing changed");
}

}  // namespace dfbench::cli
