#include "on_terminal.h"

#include "hosts/ssh_command.h"

namespace dfbench::testing {

CliResult RunOnTerminal(const DfbenchRunner& dfb, const std::vector<std::string>& args,
                        const std::string& input) {
  auto r = core::RunCapture({"script", "-qec", hosts::ShellJoin(dfb.Argv(args)), "/dev/null"},
                            std::chrono::minutes(5), input);
  if (!r) return {-1, "", r.error().message};
  return {r->status.signal ? 128 + r->status.signal : r->status.code, r->out, r->err};
}

}  // namespace dfbench::testing
