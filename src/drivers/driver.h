// A Driver turns a Workload into a load-generator run on the client Host and its report into
// a TrialResult. Three drivers exist: the built-in generator (`dfbench loadgen`),
// memtier_benchmark and dfly_bench.
#pragma once

#include <chrono>
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

// How keys are chosen, in memtier's letters. dfly_bench's U, S, N, Z are R, S, G, Z here.
enum class KeyPattern : char {
  kRandom = 'R',
  kSequential = 'S',
  kParallel = 'P',  // each connection walks its own slice of the range
  kGaussian = 'G',
  kZipf = 'Z',
};

// What load to generate: the SET:GET workload of `dfbench run`, or one command of
// `dfbench run-commands` (time-boxed passes and key-range fills).
struct Workload {
  int threads = 4;
  int clients = 50;  // per thread
  // kRequests: what each connection sends per pass, as memtier's --requests (a pass sends
  // threads x clients x requests_per_client in all).
  uint64_t requests_per_client = 0;
  std::string ratio = "1:10";  // SET:GET; unused when `command` is set
  int data_size = 256;
  int pipeline = 30;
  bool distinct_client_seed = false;

  // When set, only this request is sent (memtier's arbitrary-command mode), e.g.
  // "LPUSH __key__ __data__".
  std::string command;
  KeyPattern key_pattern = KeyPattern::kRandom;  // for `command`
  uint64_t key_minimum = 0;                      // both 0: the generator's default range
  uint64_t key_maximum = 0;
  // "" : the generator's own ("memtier-"); "key:" matches the keys DEBUG POPULATE makes.
  std::string key_prefix;

  // How long a pass lasts.
  enum class Length {
    kRequests,  // requests_per_client on every connection
    kTestTime,  // test_time
    kFill,      // every key of [key_minimum, key_maximum] gets exactly one `command` (preload)
  };
  Length length = Length::kRequests;
  std::chrono::seconds test_time{0};

  // dfly_bench --qps: batches of `pipeline` requests per second per connection; 0 = closed
  // loop. The other drivers refuse a non-zero value.
  int64_t rate_per_connection = 0;
  // The built-in generator's open loop: total operations per second over all connections,
  // latency measured from when each request was due; 0 = closed loop. The other drivers refuse
  // a non-zero value.
  double rate_per_sec = 0;
  // A discarded warm-up at the start of a time-boxed pass (built-in generator only).
  std::chrono::milliseconds warmup_time{0};
  // Latency percentiles the report holds; empty = the generator's default (50, 99, 99.9).
  std::vector<double> percentiles;

  uint64_t RequestsPerClient() const { return requests_per_client; }
  // Requests of one kRequests pass over all connections.
  uint64_t TotalRequests() const;
  uint64_t KeyCount() const { return key_maximum - key_minimum + 1; }
};

// Connections for a fill with memtier-style parallel slices (each connection a contiguous
// slice of equal size): the largest threads x clients within the requested ones whose product
// divides `keys`, so every key is written exactly once. Never more connections than keys.
struct Layout {
  int threads = 1;
  int clients = 1;
};
Layout ExactFillLayout(uint64_t keys, int threads, int clients);

// kUsage naming `tool` when `workload` asks for the built-in generator's open loop (a total rate
// or a warm-up), which external tools do not measure the same way.
core::Status RefuseOpenLoop(const Workload& workload, const std::string& tool);

class Driver {
 public:
  virtual ~Driver() = default;
  // "builtin", "memtier" or "dfly_bench": recorded as the results' load generator / tool.
  virtual std::string Name() const = 0;
  // Checks that the generator can run on `client` (its binary is there) before anything
  // starts. kEnvironment with one line saying how to provide it.
  virtual core::Status Prepare(hosts::Host& client) {
    (void)client;
    return core::Ok();
  }
  // Runs one pass on `client` (pinned to `cpus` when not empty), keeps the generator's raw
  // report at `raw_report` on this machine (and its stdout beside it, as .txt), and returns the
  // parsed measurement (trial number and raw_file left for the caller). kInterrupted on
  // SIGINT/SIGTERM; kEnvironment when the generator or the server cannot be reached; kUsage
  // for a workload the generator cannot express; kFailure for any other failed run.
  virtual core::Result<results::TrialResult> Run(hosts::Host& client, const Target& target,
                                                 const Workload& workload,
                                                 const std::vector<int>& cpus,
                                                 const std::filesystem::path& raw_report) = 0;
};

}  // namespace dfbench::drivers
