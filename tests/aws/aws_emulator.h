// The AWS emulator of the test beds (shared/testbeds/moto_bench_server.py) on a free port, for
// one test: started by Start, killed and reaped with the object.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "aws/client.h"
#include "core/subprocess.h"

namespace dfbench::testing {

class AwsEmulator {
 public:
  // Starts the emulator with `extra_env` (e.g. MOTO_BENCH_TESTBED) and waits until it listens.
  // "" when it runs; else why it cannot: no script or no moto in python3 (skip), or it would
  // not start (also reported as a test failure).
  std::string Start(const std::vector<std::pair<std::string, std::string>>& extra_env = {});
  // "http://127.0.0.1:PORT", for AWS_ENDPOINT_URL.
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Points this process, and the dfbench commands it starts, at the emulator with dummy
  // credentials, where the AWS CLI would find them (the environment; no profile).
  void ExportToEnvironment() const;
  // A client of the emulator in us-east-1 (reads AWS_ENDPOINT_URL), for checks beside dfbench.
  static aws::Client Client();

 private:
  int port_ = 0;
  std::filesystem::path log_;
  core::Process server_;
};

}  // namespace dfbench::testing
