// The one way a test waits for something another process or thread brings about: poll the
// condition until it holds or a deadline passes. Tests never sleep a fixed time to let something
// happen, since how long it takes depends on the machine's load.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string_view>

namespace dfbench::testing {

// Polls `condition` (first at once, then after pauses growing from 1 ms to 50 ms) until it
// returns true or `timeout` has passed. A failure names `what` ("the pid file", "redis gone") and
// how long it waited; use it as ASSERT_TRUE(WaitUntil(...)) or EXPECT_TRUE(...).
::testing::AssertionResult WaitUntil(const std::function<bool()>& condition,
                                     std::chrono::milliseconds timeout, std::string_view what);

}  // namespace dfbench::testing
