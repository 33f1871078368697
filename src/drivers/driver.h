// A Driver turns a Workload into a load-generator run on the client Host and its report into
// a TrialResult. The built-in generator is one driver; memtier_benchmark and dfly_bench plug in
// the same way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "hosts/host.h"
#include "results/schema.h"

namespace dfbench::drivers {

// Where the load goes.
struct Target {
  std::string address;
  int port = 0;
  std::string protocol = "redis";  // redis | memcache_text
};

// What load to generate: the SET:GET workload of `dfbench run`.
struct Workload {
  int threads = 4;
  int clients = 50;             // per thread
  uint64_t total_requests = 0;  // per trial, split evenly over all connections
  std::string ratio = "1:10";
  int data_size = 256;
  int pipeline = 30;
  bool distinct_client_seed = false;

  // Requests each connection sends so that all of them together send at least total_requests.
  uint64_t RequestsPerClient() const;
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string Name() const = 0;
  // Runs one pass on `client` (pinned to `cpus` when not empty), keeps the generator's raw
  // report at `raw_report` on this machine, and returns the parsed measurement (trial number
  // and raw_file left for the caller). kInterrupted on SIGINT/SIGTERM; kEnvironment when the
  // server cannot be reached; kFailure for any other failed run.
  virtual core::Result<results::TrialResult> Run(hosts::Host& client, const Target& target,
                                                 const Workload& workload,
                                                 const std::vector<int>& cpus,
                                                 const std::filesystem::path& raw_report) = 0;
};

}  // namespace dfbench::drivers
