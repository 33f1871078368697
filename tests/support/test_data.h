// Files, fixtures and argument lists as tests read and build them.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace dfbench::testing {

// The JSON in `path`; a test failure (and null) when it is missing or malformed.
nlohmann::json ReadJson(const std::filesystem::path& path);

// The JSON in `path`, or null when it is missing or not (yet) whole: for polling a file that
// another process is writing.
nlohmann::json ReadJsonIfComplete(const std::filesystem::path& path);

// A file of tests/fixtures/, e.g. FixturePath("results/reference_run.json").
std::filesystem::path FixturePath(const std::string& relative);

// The text of FixturePath(relative); a test failure (and "") when it cannot be read.
std::string FixtureText(const std::string& relative);

// `a` followed by `b`, e.g. a command line and shared flags.
std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b);

// The arguments joined by single spaces, to match a command line as one string.
std::string JoinArgs(const std::vector<std::string>& args);

// The inverse: "a 'b c' d" is {"a", "b c", "d"} (single quotes group, no escapes), to write an
// expected argument vector on a few lines.
std::vector<std::string> SplitArgs(std::string_view line);

// The NUL-terminated strings of `text`, in order: what `printf '%s\0' ARGS...` prints, so a
// test sees the arguments a program received, whatever bytes they hold.
std::vector<std::string> SplitNul(std::string_view text);

// Writes `text` to `path` (creating its directory) as an executable (0755): a stand-in for a
// program, such as a load generator that fails in one precise way.
void WriteExecutable(const std::filesystem::path& path, const std::string& text);

// The 64-byte ELF header of a little-endian 64-bit aarch64 executable: a "binary for another
// architecture" on an x86_64 test machine, which has no real one to offer.
std::string Aarch64ElfHeader();

// Whether `part` occurs in `text`.
bool Contains(const std::string& text, const std::string& part);

// How often `needle` occurs in `haystack`, without overlaps.
size_t CountOccurrences(const std::string& haystack, const std::string& needle);

// Expects every one of `parts` in `text` (ExpectContainsAll), or none of them
// (ExpectContainsNone): a failure names the part, and shows the text when it is short.
void ExpectContainsAll(const std::string& text, const std::vector<std::string>& parts);
void ExpectContainsNone(const std::string& text, const std::vector<std::string>& parts);

// Flags of a small `dfbench run`: 2 threads x 5 clients, 20000 requests, 2 trials, no cooldown.
extern const std::vector<std::string> kSmallRun;
// Flags of a small `dfbench run-commands` or `run-commands-dfly` but for its load generator's:
// keys 1..1000, one 1-second trial, no warmup, no cooldown.
extern const std::vector<std::string> kSmallCommandTrial;
// kSmallCommandTrial with a load of 1 thread x 2 clients (`run-commands`).
extern const std::vector<std::string> kSmallCommandRun;
// Flags of a small `dfbench sweep` that stops after its first open-loop step: an objective no
// engine meets (p99 <= 1 us), 1 thread x 2 clients, pipeline 4, keys 1..2000, 1-second steps,
// no confirmation round, no cooldown.
extern const std::vector<std::string> kSmallSweep;

}  // namespace dfbench::testing
