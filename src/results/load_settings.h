// The load every benchmark drives, whatever its load generator calls the settings: one type, the
// ranges a command line may set, and each kind of run's defaults. Result files record it inside
// their "memtier" object (MemtierConfig, CommandLoadConfig).
#pragma once

#include <array>

#include "core/load_limits.h"

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

// What a command line may set, setting by setting (inclusive).
struct LoadSettingRange {
  int LoadSettings::*member;
  int min;
  int max;
};
inline constexpr std::array<LoadSettingRange, 4> kLoadSettingRanges = {{
    {&LoadSettings::threads, core::kThreadsLimit.min, core::kThreadsLimit.max},
    {&LoadSettings::clients, core::kClientsLimit.min, core::kClientsLimit.max},
    {&LoadSettings::pipeline, core::kPipelineLimit.min, core::kPipelineLimit.max},
    {&LoadSettings::data_size, core::kDataSizeLimit.min, core::kDataSizeLimit.max},
}};

}  // namespace dfbench::results
