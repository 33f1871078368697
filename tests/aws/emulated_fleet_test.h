// Base of the tests whose AWS is the emulator with its instances on the multi-host test bed
// (MOTO_BENCH_TESTBED): each test gets a fresh emulator, exported to the environment where
// dfbench looks for endpoints and credentials, and neither a provider nor a confirmation from the
// caller's environment. Skips, saying why, without the bed or moto.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "aws/cloudformation.h"
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
    ::unsetenv("DFBENCH_PROVIDER");
    ::unsetenv("DFBENCH_NO_CONFIRM");
  }

  // The stack of setup `id` as the emulator knows it; kNotFound once deleted.
  static core::Result<aws::Stack> StackOf(const std::string& id) {
    return aws::DescribeStack(AwsEmulator::Client(), "dfbench-" + id);
  }

  static void ExpectStackGone(const std::string& id) {
    auto stack = StackOf(id);
    ASSERT_FALSE(stack) << "still there: " << stack->status;
    EXPECT_EQ(stack.error().kind, core::ErrorKind::kNotFound) << stack.error().message;
  }

  AwsEmulator emulator_;
};

}  // namespace dfbench::testing
