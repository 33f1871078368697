// Boolean flags with Go's flag syntax, as the reference reads them: a bare `--flag` means true,
// `--flag=false` / `--flag=true` (or 0/1, t/f, TRUE/FALSE, True/False) set it, and a bare flag
// never takes the next argument. The last occurrence wins.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>

namespace dfbench::cli {

// Go's strconv.ParseBool: 1 t T TRUE true True, 0 f F FALSE false False; nullopt otherwise.
std::optional<bool> ParseGoBool(const std::string& text);

// Declares the flag `names` (CLI11 spelling: "--long,-s") on `app`. A value Go would refuse
// fails parsing with one line naming the flag.
CLI::Option* AddBoolFlag(CLI::App* app, const std::string& names, bool* target,
                         const std::string& help);
// The same, calling `set` with the value (for a flag that sets several fields).
CLI::Option* AddBoolFlag(CLI::App* app, const std::string& names, std::function<void(bool)> set,
                         const std::string& help);

}  // namespace dfbench::cli
