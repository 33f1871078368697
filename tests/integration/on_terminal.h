// Runs dfbench with a pseudo-terminal as its stdin, as a person at a terminal would (through
// util-linux `script`), typing `input`.
#pragma once

#include <string>
#include <vector>

#include "dfbench_runner.h"

namespace dfbench::testing {

// stdout and stderr both arrive in `out` (a terminal has one stream); `err` holds failures to
// start. The exit code is dfbench's.
CliResult RunOnTerminal(const DfbenchRunner& dfb, const std::vector<std::string>& args,
                        const std::string& input);

}  // namespace dfbench::testing
