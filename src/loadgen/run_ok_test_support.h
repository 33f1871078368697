// For the load generator's tests: the Config of a small quiet run, and a run that is expected to
// succeed, or to fail before the load.
#pragma once

#include <gtest/gtest.h>

#include "loadgen/loadgen.h"

namespace dfbench::loadgen {

// `threads` x `clients` connections, no progress line; memtier's defaults otherwise.
inline Config QuietRun(int threads, int clients) {
  Config config;
  config.load.threads = threads;
  config.load.clients = clients;
  config.progress = ProgressMode::kNever;
  return config;
}

// Runs `config`; a failure fails the test and returns an empty report.
inline Report RunOk(const Config& config) {
  auto report = loadgen::Run(config);
  EXPECT_TRUE(report) << report.error().message;
  return report ? *report : Report{};
}

// Runs `config`, which must be valid but must not run; the error.
inline core::Error RunFails(const Config& config) {
  EXPECT_TRUE(Validate(config)) << Validate(config).error().message;
  auto report = loadgen::Run(config);
  EXPECT_FALSE(report) << "the run did not fail";
  return report ? core::Error{} : report.error();
}

}  // namespace dfbench::loadgen
