// Small text helpers shared by the parsers of command output and of flag values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dfbench::core {

// `s` without leading and trailing spaces, tabs, carriage returns and line feeds.
std::string Trim(std::string_view s);
// The first non-blank line of `s` (a program's message), without its line end; "" when none.
std::string FirstLine(std::string_view s);
// `s` without the terminal colour codes (ESC [ ... m) some programs print even into a pipe.
std::string WithoutColourCodes(std::string_view s);
// The words of `s`, split on whitespace: "  --a=1  --b " -> {"--a=1", "--b"}.
std::vector<std::string> SplitWords(std::string_view s);

}  // namespace dfbench::core
