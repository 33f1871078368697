// Loads and passes shared by the driver tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "core/load.h"

namespace dfbench::drivers {

struct LoadedPass {
  core::Load load;
  core::Pass pass;
};

// A measured pass of run-commands: 32 threads x 5 clients, pipeline 20, 256-byte values,
// distinct client seeds, keys 1..1,000,000, time-boxed.
inline LoadedPass TimedCommand(std::string command, core::KeyPattern pattern, int seconds) {
  core::Load load = core::kCommandLoad;
  load.command = std::move(command);
  load.key_pattern = pattern;
  load.key_minimum = 1;
  load.key_maximum = 1000000;
  return {load, core::Pass::Time(std::chrono::seconds(seconds))};
}

// A preload: every key of 1..keys gets one `command`, pipeline 20.
inline LoadedPass Fill(std::string command, uint64_t keys, int threads, int clients) {
  const core::Load load{.threads = threads,
                        .clients = clients,
                        .pipeline = 20,
                        .data_size = 256,
                        .command = std::move(command),
                        .key_minimum = 1,
                        .key_maximum = keys};
  return {load, core::Pass::Fill()};
}

}  // namespace dfbench::drivers
