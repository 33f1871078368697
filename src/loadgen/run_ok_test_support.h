// For the load generator's tests: a run that is expected to succeed, or to fail before the load.
#pragma once

#include <gtest/gtest.h>

#include "loadgen/loadgen.h"

namespace dfbench::loadgen {

// Parses and runs `options`; a failure of either fails the test and returns an empty report.
inline Report RunOk(const Options& options) {
  auto config = ParseOptions(options);
  EXPECT_TRUE(config) << config.error().message;
  if (!config) return {};
  auto report = loadgen::Run(*config);
  EXPECT_TRUE(report) << report.error().message;
  return report ? *report : Report{};
}

// Parses and runs `options`, which must be valid but must not run; the error.
inline core::Error RunFails(const Options& options) {
  auto config = ParseOptions(options);
  EXPECT_TRUE(config) << config.error().message;
  if (!config) return {};
  auto report = loadgen::Run(*config);
  EXPECT_FALSE(report) << "the run did not fail";
  return report ? core::Error{} : report.error();
}

}  // namespace dfbench::loadgen
