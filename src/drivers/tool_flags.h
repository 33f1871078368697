// What the load generators' command lines say alike of a load, each in its tool's spelling:
// memtier_benchmark's (which `dfbench loadgen` shares), "--key-minimum 1", or dfly_bench's,
// "--key_minimum=1". The key range and prefix, the command or the SET:GET ratio, and the key
// pattern's letters are written here once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/load.h"

namespace dfbench::drivers {

enum class FlagSpelling {
  kMemtier,    // "--key-minimum", "1": the name dashed, the value a word of its own
  kDflyBench,  // "--key_minimum=1": the name with underscores, the value after '='
};

// Appends the flag `name` (dashed, as memtier spells it: "key-minimum") holding `value`, as
// `spelling` writes it.
void AppendFlag(std::vector<std::string>& args, FlagSpelling spelling, std::string_view name,
                const std::string& value);

// Appends what is sent: "command" when the load has one, else "ratio" (Ratio::ToString, "1:10").
void AppendSentFlag(std::vector<std::string>& args, FlagSpelling spelling, const core::Load& load);

// Appends the key range when the load sets one ("key-minimum", "key-maximum"), then
// "key-prefix" when it has one.
void AppendKeyRangeFlags(std::vector<std::string>& args, FlagSpelling spelling,
                         const core::Load& load);

// memtier's letter of `pattern` (R, S, P, G, Z), which `dfbench loadgen` reads too.
std::string MemtierKeyPattern(core::KeyPattern pattern);

// dfly_bench's --key_dist of `pattern` (U, S, N, Z); kUsage for P, which it has not.
core::Result<std::string> DflyBenchKeyDist(core::KeyPattern pattern);

}  // namespace dfbench::drivers
