#include "cli/confirm.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>

#include "core/interrupt.h"

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

}  // namespace

void AddYesFlag(CLI::App* sub, bool* yes) {
  AddBoolFlag(sub, "--yes,-y", yes,
              "Do not ask before changing hosts (also: DFBENCH_NO_CONFIRM=1); needed without a "
              "terminal");
}

core::Status Confirm(const std::string& plan, bool yes) {
  return Confirm(plan, yes, NoConfirmFromEnv(),
                 PromptIo{.in = &std::cin, .terminal = isatty(STDIN_FILENO) == 1, .out = stderr});
}

core::Status Confirm(const std::string& plan, bool yes, bool no_confirm_env, const PromptIo& io) {
  if (!yes && !no_confirm_env && !io.terminal) {
    return core::Fail(core::ErrorKind::kUsage,
                      "this command changes remote hosts and stdin is not a terminal to confirm "
                      "on: pass --yes (or set DFBENCH_NO_CONFIRM=1) to go on");
  }
  std::fputs(plan.c_str(), io.out);
  if (yes || no_confirm_env) return core::Ok();
  std::fputs("Proceed? [y/N] ", io.out);
  std::fflush(io.out);
  std::string answer;
  const bool read = static_cast<bool>(std::getline(*io.in, answer));
  if (core::InterruptRequested()) {
    return core::Fail(core::ErrorKind::kInterrupted, "interrupted at the prompt; nothing changed");
  }
  if (!read) std::fputs("\n", io.out);
  answer = Trimmed(answer);
  if (answer == "y" || answer == "yes") return core::Ok();
  return core::Fail(core::ErrorKind::kFailure, "not confirmed; nothing changed");
}

}  // namespace dfbench::cli
