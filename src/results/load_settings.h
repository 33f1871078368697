// The load every benchmark drives, whatever its load generator calls the settings: one type, the
// ranges a command line may set, and each kind of run's defaults. Result files record it inside
// their "memtier" object (MemtierConfig, CommandLoadConfig).
#pragma once

#include <array>

namespace dfbench::results {

struct LoadSettings {
  int threads = 0;
  int clients = 0;                    // connections per thread
  int pipeline = 0;                   // requests in flight per connection
  int data_size = 0;                  // value bytes
  bool distinct_client_seed = false;  // each connection its own random seed
};

// `run`, `quickstart` and `sweep`: the reference's memtier defaults.
inline constexpr LoadSettings kRunLoad{
    .threads = 4, .clients = 50, .pipeline = 30, .data_size = 256};
// `run-commands` and `run-commands-dfly`, as the reference's.
inline constexpr LoadSettings kCommandLoad{
    .threads = 32, .clients = 5, .pipeline = 20, .data_size = 256, .distinct_client_seed = true};
// `run-memory`: a light update traffic beside the snapshot.
inline constexpr LoadSettings kMemoryLoad{
    .threads = 2, .clients = 10, .pipeline = 1, .data_size = 1024};

// The settings a command line sets as numbers, in the order of each command's spellings
// (cli/load_flags); their ranges are core/load_limits.h's.
inline constexpr std::array<int LoadSettings::*, 4> kRangedLoadSettings = {
    &LoadSettings::threads, &LoadSettings::clients, &LoadSettings::pipeline,
    &LoadSettings::data_size};

}  // namespace dfbench::results
