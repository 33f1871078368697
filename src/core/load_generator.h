// Which program generates a benchmark's load: dfbench's own (`dfbench loadgen`), memtier_benchmark
// or Dragonfly's dfly_bench. Its words are what result files and state.json record, what
// --load-generator takes, and the keys of the tools a setup installs.
#pragma once

#include "core/enum_names.h"

namespace dfbench::core {

enum class LoadGenerator { kBuiltin, kMemtier, kDflyBench };

inline constexpr EnumNames<LoadGenerator, 3> kLoadGeneratorNames{
    {{{LoadGenerator::kBuiltin, "builtin"},
      {LoadGenerator::kMemtier, "memtier"},
      {LoadGenerator::kDflyBench, "dfly_bench"}}}};

}  // namespace dfbench::core
