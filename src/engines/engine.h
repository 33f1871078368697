// The engines dfbench benchmarks, and their lifecycle on a Host: start with tuning, wait
// until ready, read the version, flush, stop.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "hosts/host.h"

namespace dfbench::engines {

enum class Protocol { kRedis, kMemcacheText };

struct EngineSpec {
  std::string name;     // dragonfly | redis | valkey | memcached
  std::string program;  // looked up on PATH: dragonfly, redis-server, valkey-server ...
  Protocol protocol;
};

// The engines dfbench knows, in the order of --engines' default plus memcached.
const std::vector<EngineSpec>& KnownEngines();
// nullptr for an unknown name.
const EngineSpec* FindEngine(const std::string& name);
// Parses "dragonfly,redis" into specs; kUsage naming the unknown engine and the known ones.
core::Result<std::vector<const EngineSpec*>> ParseEngineList(const std::string& csv);

// Server-side tuning, as the reference's --redis_io_threads & co.
struct Tuning {
  int redis_io_threads = 0;                 // 0: engine default
  int valkey_io_threads = 0;                // 0: engine default
  std::optional<int> dragonfly_num_shards;  // 0 default, >0 explicit, -1 derived on the host
  bool dragonfly_conn_use_incoming_cpu = false;
  int dragonfly_proactor_threads = 0;   // 0: engine default (all CPUs it may use)
  std::vector<int> cpus;                // pin the engine to these CPUs; empty = no pinning
  std::vector<std::string> extra_args;  // appended verbatim
};

// The flags a tuning adds for one engine, as recorded in results.json ("io_threads",
// "num_shards", "conn_use_incoming_cpu", "cpus").
nlohmann::json TuningJson(const EngineSpec& spec, const Tuning& tuning);

// `<binary> --version` (memcached: `-V`) on the host, trimmed; kEnvironment if it fails.
core::Result<std::string> ProbeVersion(hosts::Host& host, const std::string& binary,
                                       const EngineSpec& spec);

struct StartOptions {
  std::chrono::milliseconds ready_timeout = std::chrono::seconds(20);
  std::chrono::milliseconds stop_grace = std::chrono::seconds(5);
};

// A started engine. Stop() is idempotent; the destructor stops it too, so no engine outlives
// the scope that started it.
class RunningEngine {
 public:
  RunningEngine(RunningEngine&&) noexcept;
  RunningEngine& operator=(RunningEngine&&) = delete;
  ~RunningEngine();

  const EngineSpec& spec() const { return *spec_; }
  const std::string& address() const { return address_; }
  int port() const { return port_; }
  // Version as the server reports it (INFO server / memcached "version"), e.g.
  // "redis 7.0.15", "dragonfly v1.27.0", "valkey 8.0.1", "memcached 1.6.18".
  const std::string& version() const { return version_; }
  const std::string& log_path() const { return daemon_.log_path; }

  // PING (memcached: "version"). kFailure with the log tail when the engine is gone.
  core::Status HealthCheck();
  // FLUSHALL (memcached: flush_all).
  core::Status Flush();
  // True while the process is alive.
  bool Alive();
  // SHUTDOWN NOSAVE (memcached: none), then SIGTERM/SIGKILL of the started pid.
  core::Status Stop();
  // The last lines of the engine's log.
  std::string LogTail();

 private:
  friend core::Result<RunningEngine> Start(hosts::Host&, const EngineSpec&, const std::string&,
                                           const Tuning&, const StartOptions&);
  RunningEngine(hosts::Host* host, const EngineSpec* spec, hosts::DaemonHandle daemon,
                std::string address, int port, StartOptions options)
      : host_(host),
        spec_(spec),
        daemon_(std::move(daemon)),
        address_(std::move(address)),
        port_(port),
        options_(options) {}

  hosts::Host* host_ = nullptr;
  const EngineSpec* spec_ = nullptr;
  hosts::DaemonHandle daemon_;
  std::string address_;
  int port_ = 0;
  std::string version_;
  StartOptions options_;
  bool stopped_ = false;
};

// Starts `binary` on a free port of host.EngineAddress() with persistence off and the tuning
// applied, waits until it answers PING (bounded by ready_timeout), reads its version and
// flushes it. kEnvironment with the log tail when it exits or never answers.
core::Result<RunningEngine> Start(hosts::Host& host, const EngineSpec& spec,
                                  const std::string& binary, const Tuning& tuning,
                                  const StartOptions& options = {});

}  // namespace dfbench::engines
