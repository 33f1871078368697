// Workloads shared by the driver tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "drivers/driver.h"

namespace dfbench::drivers {

// A measured pass of run-commands: 32 threads x 5 clients, pipeline 20, 256-byte values,
// distinct client seeds, keys 1..1,000,000, time-boxed.
inline Workload TimedCommand(std::string command, KeyPattern pattern, int seconds) {
  Workload w;
  w.threads = 32;
  w.clients = 5;
  w.pipeline = 20;
  w.distinct_client_seed = true;
  w.command = std::move(command);
  w.key_pattern = pattern;
  w.key_minimum = 1;
  w.key_maximum = 1000000;
  w.length = Workload::Length::kTestTime;
  w.test_time = std::chrono::seconds(seconds);
  return w;
}

// A preload: every key of 1..keys gets one `command`, pipeline 20.
inline Workload Fill(std::string command, uint64_t keys, int threads, int clients) {
  Workload w;
  w.threads = threads;
  w.clients = clients;
  w.pipeline = 20;
  w.command = std::move(command);
  w.key_minimum = 1;
  w.key_maximum = keys;
  w.length = Workload::Length::kFill;
  return w;
}

}  // namespace dfbench::drivers
