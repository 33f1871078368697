// The multi-host test bed: two SSH "hosts" (network namespaces with their own sshd, PID
// namespace and /root) brought up once per test binary by shared/testbeds/netns-up.sh; a binary
// compiled with DFBENCH_TESTBED_HOSTS="server client replica0" gets those hosts instead
// (10.200.0.2, .3, .4, ...).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/processes.h"

namespace dfbench::testing {

struct Testbed {
  static constexpr const char* kServer = "10.200.0.2";
  static constexpr const char* kClient = "10.200.0.3";
  static constexpr const char* kUser = "root";
  // This machine on the bed's bridge: where the hosts reach a server the test runs here.
  static constexpr const char* kBridge = "10.200.0.1";

  bool up = false;
  std::string skip_reason;        // why the bed is not up
  std::filesystem::path base;     // BASE of netns-up.sh
  std::filesystem::path key;      // login key accepted by both hosts
  std::filesystem::path scripts;  // the testbeds directory
};

// The bed of this test binary (filled by the environment).
Testbed& Bed();

// Skips the current test with the reason when the bed is not up.
#define REQUIRE_TESTBED()                                                                     \
  do {                                                                                        \
    if (!::dfbench::testing::Bed().up) GTEST_SKIP() << ::dfbench::testing::Bed().skip_reason; \
  } while (0)

// `dfbench setup` of an ssh setup on the bed's server and client with `key` (the bed's; "" for
// none); `confirm` answers the question before hosts are changed ("" leaves it to the test).
std::vector<std::string> SetupArgs(const std::string& id, const std::string& engines,
                                   const std::string& key = Bed().key.string(),
                                   const std::string& confirm = "--yes");

// Runs a command on a bed host over a plain ssh connection (not through dfbench), for checks.
std::string OnHost(const std::string& address, const std::string& command);

}  // namespace dfbench::testing
