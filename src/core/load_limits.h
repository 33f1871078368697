// The load a command line may ask of a load generator, one home for the built-in generator's
// checks (loadgen), the benchmark commands' load settings (results) and the flags' range table
// (cli), which sit in layers that do not see each other.
#pragma once

#include <cstdint>

namespace dfbench::core {

struct LoadLimit {
  int min;  // inclusive
  int max;  // inclusive
};

inline constexpr LoadLimit kThreadsLimit{1, 1024};       // load generator threads
inline constexpr LoadLimit kClientsLimit{1, 100000};     // connections per thread
inline constexpr LoadLimit kPipelineLimit{1, 100000};    // requests in flight per connection
inline constexpr LoadLimit kDataSizeLimit{1, 64 << 20};  // value bytes

}  // namespace dfbench::core
