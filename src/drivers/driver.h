// A Driver turns a Load and a Pass (core/load.h) into a load-generator run on the client Host
// and its report into a TrialResult. Three drivers exist: the built-in generator (`dfbench
// loadgen`), memtier_benchmark and dfly_bench.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "core/load_generator.h"
#include "core/wire_protocol.h"
#include "hosts/host.h"
#include "protocol/tls.h"
#include "results/schema.h"

namespace dfbench::drivers {

// Where the load goes.
struct Target {
  std::string address;
  int port = 0;
  core::Protocol protocol = core::Protocol::kRedis;
  bool cluster = false;  // a Redis Cluster (or an emulated one): the client follows its slot map
  // An endpoint that dfbench did not start: the run's keys all start with this ("": the server
  // is the run's), and what it asks of a client (TLS, an ACL user, a password).
  std::string key_namespace;
  protocol::TlsOptions tls;
  std::string user;
  std::string password;
  int db = 0;  // an endpoint's database (its URL's /N), SELECTed by every connection
};

// `load` as it is sent to `target`: its keys under the target's namespace, in front of the
// load's own prefix or the tool's `default_prefix`.
core::Load InNamespace(const Target& target, core::Load load, const std::string& default_prefix);

// Connections for a fill with memtier-style parallel slices (each connection a contiguous
// slice of equal size): the largest threads x clients within the requested ones whose product
// divides `keys`, so every key is written exactly once. Never more connections than keys.
struct Layout {
  int threads = 1;
  int clients = 1;
};
Layout ExactFillLayout(uint64_t keys, int threads, int clients);

// kUsage naming `tool` when `pass` asks for the built-in generator's open loop (a total rate
// or a warm-up), which external tools do not measure the same way.
core::Status RefuseOpenLoop(const core::Pass& pass, const std::string& tool);

// kUsage, in one line, when `generator` cannot send `metrics` while a pass runs: dfly_bench
// sends none, memtier_benchmark StatsD but serves no Prometheus endpoint. Drivers check it
// before a run starts and again on each command line they build.
core::Status CheckLiveMetrics(core::LoadGenerator generator, const core::LiveMetrics& metrics);

class Driver {
 public:
  virtual ~Driver() = default;
  // Which generator this is: recorded as the results' load generator / tool.
  virtual core::LoadGenerator Kind() const = 0;
  // Its word (core::kLoadGeneratorNames), for files and messages.
  std::string Name() const { return std::string(core::kLoadGeneratorNames.Name(Kind())); }
  // Whether a password reaches the generator without landing on its command line or in its
  // report (the built-in one reads it from its environment; the external tools would not).
  virtual bool KeepsPasswordsPrivate() const { return false; }
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
  // for a load or pass the generator cannot express; kFailure for any other failed run.
  virtual core::Result<results::TrialResult> Run(hosts::Host& client, const Target& target,
                                                 const core::Load& load, const core::Pass& pass,
                                                 const std::vector<int>& cpus,
                                                 const std::filesystem::path& raw_report) = 0;
};

}  // namespace dfbench::drivers
