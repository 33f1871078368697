// Base of the tests whose AWS is the emulator with its instances on the multi-host test bed
// (MOTO_BENCH_TESTBED): each test gets a fresh emulator, exported to the environment where
// dfbench looks for endpoints and credentials. Skips, saying why, without the bed or moto.
#pragma once

#include <gtest/gtest.h>

#include "aws_emulator.h"
#include "ssh_testbed.h"

namespace dfbench::testing {

class EmulatedFleetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_TESTBED();
    if (const std::string why = emulator_.Start({{"MOTO_BENCH_TESTBED", Bed().base.string()}});
        !why.empty()) {
      GTEST_SKIP() << why;
    }
    emulator_.ExportToEnvironment();
  }

  AwsEmulator emulator_;
};

}  // namespace dfbench::testing
