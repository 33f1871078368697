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
// `s` with its ASCII letters in upper case: "lpush" -> "LPUSH" (a command's name).
std::string AsciiUpper(std::string_view s);

// The one gate for text from outside (a server's INFO fields and error replies, a host's or a
// tool's output) on its way to a terminal, a log or a CSV file. Escape sequences (ESC [ ... as
// CSI, ESC ] ... up to BEL or ESC \ as OSC, ESC and one byte otherwise) are removed whole: their
// effect (colours, a window title, a cleared screen) is what must not happen and their text is
// noise. Any other C0 control, DEL, a C1 control (U+0080..U+009F, which some terminals obey as
// ESC sequences) and a byte that is not valid UTF-8 is shown as \xNN, so the reader sees that
// something was there. A tab becomes a space (table columns stay aligned); '\n' is kept only
// with `keep_newlines` (a message of several lines of our own). Valid UTF-8 letters are kept.
std::string Printable(std::string_view text, bool keep_newlines = false);

}  // namespace dfbench::core
