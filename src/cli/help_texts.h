// Each command's examples and notes for --help: prose files (help/<key>.txt) embedded into the
// binary at build time, so the text reads and changes as text.
#pragma once

#include <string_view>

namespace dfbench::cli {

// The text of help/<key>.txt, or "" when there is none. A command's key is its name; a nested
// command's joins the names with '_' ("cache_list").
std::string_view HelpText(std::string_view key);

}  // namespace dfbench::cli
