// The range of every number a benchmark command's or loadgen's flags take (counts, sizes, rates,
// durations): one table, which flags are registered from (WithRange), docs/cli.md's "Ranges" table
// lists and the command line's property test walks. A value outside its range, negative where the
// range is not, too large to hold or with a suffix the kind does not take is one line naming the
// flag and the range, exit code 2, before anything starts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"

namespace dfbench::cli {

enum class NumberKind {
  kInteger,   // a plain decimal integer: "42", "-1"
  kCount,     // core::ParseCount: "10k", "2.5M", "1G", "1_000_000"
  kDuration,  // core::ParseDuration: "30s", "500ms", "2m", "1h"; min and max in microseconds
};

struct FlagRange {
  const char* flag;  // the long name it is registered under, e.g. "--trials"
  NumberKind kind;
  int64_t min;  // inclusive
  int64_t max;  // inclusive
};

// Every entry; a flag appears once per kind it takes (--test-time: whole seconds in
// run-commands and run-replication, a duration in run-memory and loadgen).
const std::vector<FlagRange>& FlagRanges();

// The entry of `flag` as `kind`; nullptr when the table has none.
const FlagRange* FindFlagRange(std::string_view flag, NumberKind kind);

// "1 to 1000", "0s to 24h": the range in plain numbers (durations in their largest whole unit).
std::string RangeText(const FlagRange& range);

// The value `text` stands for when it lies in `range` (a duration in microseconds), else a
// kUsage error of one line naming the flag, the text and the range.
core::Result<int64_t> ParseInRange(const FlagRange& range, std::string_view text);

// Checks every value `opt` is given against the table's entry of `opt`'s long name as `kind`
// (one entry must exist: a programmer error otherwise) and shows the range in --help. `word`,
// when not empty, is taken as it is besides the numbers (loadgen's `--requests allkeys`).
CLI::Option* WithRange(CLI::Option* opt, NumberKind kind, std::string_view word = {});

// Adds the flag `names` holding `*value`, its default shown in --help and its values checked
// against its range as `kind` (WithRange).
template <class T>
CLI::Option* AddRangedOption(CLI::App* sub, const std::string& names, T* value, NumberKind kind,
                             const std::string& help) {
  return WithRange(sub->add_option(names, *value, help)->capture_default_str(), kind);
}

// The name of the validator WithRange adds for `kind`: a flag whose value holds numbers among
// other words (--cases) names its own check so, to be found by RangeOfOption.
std::string RangeValidatorName(NumberKind kind);

// The entry `opt` was registered with; nullptr for a flag without a range.
const FlagRange* RangeOfOption(CLI::Option* opt);

}  // namespace dfbench::cli
