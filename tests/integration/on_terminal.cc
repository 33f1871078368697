#include "on_terminal.h"

namespace dfbench::testing {
namespace {

std::string ShellQuote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

}  // namespace

CliResult RunOnTerminal(const DfbenchRunner& dfb, const std::vector<std::string>& args,
                        const std::string& input) {
  std::string command;
  for (const auto& a : dfb.Argv(args)) {
    if (!command.empty()) command.push_back(' ');
    command.append(ShellQuote(a));
  }
  auto r =
      core::RunCapture({"script", "-qec", command, "/dev/null"}, std::chrono::minutes(5), input);
  if (!r) return {-1, "", r.error().message};
  return {r->status.signal ? 128 + r->status.signal : r->status.code, r->out, r->err};
}

}  // namespace dfbench::testing
