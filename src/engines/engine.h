// The engines dfbench benchmarks, and their lifecycle on a Host: start with tuning, wait
// until ready, read the version, flush, stop.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "core/wire_protocol.h"
#include "hosts/host.h"
#include "protocol/server_endpoint.h"

namespace dfbench::engines {

// What an engine speaks (core's: the load generators send the same).
using core::Protocol;

// The builds an engine's project publishes (engines/install.h turns them into URLs).
enum class PublishedBuilds {
  kNone,          // source releases only
  kGithubAssets,  // <base>/download/<tag>/<name>-<x86_64|aarch64>.tar.gz; latest/download/...
  kUbuntuBuilds,  // <base>/<name>-<version>-<focal|jammy|noble>-<x86_64|arm64>.tar.gz
};

// Where pinned versions (--<engine>_version) come from.
struct ReleaseFacts {
  std::string base_url;    // $DFBENCH_<ENGINE>_RELEASES replaces it
  std::string tag_prefix;  // tags read "v1.31.0" ("v") or "8.0.2" ("")
  // What `latest` means where the project publishes no "latest" link ("" where it does).
  std::string known_latest;
  PublishedBuilds builds = PublishedBuilds::kNone;
  bool source_release = false;  // <base>/<name>-<version>.tar.gz, built on the host
  std::string archive_binary;   // the program's name in a release archive (a shell glob)
};

// Server-side tuning, as the reference's --redis_io_threads & co.
struct Tuning {
  int redis_io_threads = 0;                 // 0: engine default
  int valkey_io_threads = 0;                // 0: engine default
  std::optional<int> dragonfly_num_shards;  // 0 default, >0 explicit, -1 derived on the host
  bool dragonfly_conn_use_incoming_cpu = false;
  int dragonfly_proactor_threads = 0;  // 0: engine default (all CPUs it may use)
  // memcached -t: 0 resolves to the CPUs it may use (its pinned list, else the host's vCPUs), as
  // every other engine gets a thread per CPU it is given.
  int memcached_threads = 0;
  // Redis / Valkey: pin onto CPU 0 plus the network-I/O CPUs (NetworkPinCpus) where the host
  // knows its NIC queues and the role is not pinned already; best effort, recorded as
  // "pin_network" only when applied.
  bool redis_pin_network = false;
  bool valkey_pin_network = false;
  // Redis / Valkey: 0 runs one process; N >= 1 a Redis Cluster of N primaries on the server
  // host, each its own process on its own share of `cpus` (the reference's --<engine>_<knob>).
  int redis_shards = 0;
  int valkey_shards = 0;
  // Dragonfly's --cluster_mode=emulated: one process that answers the cluster commands as a
  // one-node cluster, so a cluster client drives it unchanged.
  bool dragonfly_cluster_emulated = false;
  // Serve TLS alone, with the setup's certificates (StartOptions::tls); recorded as "tls".
  bool tls = false;
  // Only an ACL user made for the run gets in (StartOptions::acl); recorded as "acl_user", its
  // name.
  bool acl_user = false;
  std::vector<int> cpus;                // pin the engine to these CPUs; empty = no pinning
  std::vector<std::string> extra_args;  // appended verbatim
};

// The command line an engine's program takes (BuildArgv): Dragonfly's absl flags (and its
// shard, proactor and incoming-CPU tuning), redis-server's (Valkey's too), memcached's.
enum class CommandLine { kDragonfly, kRedisServer, kMemcached };

// Which of Tuning's per-engine fields apply to an engine (nullptr: none).
struct TuningFacts {
  CommandLine command_line = CommandLine::kRedisServer;
  int Tuning::*io_threads = nullptr;    // --io-threads N, recorded as "io_threads"
  bool Tuning::*pin_network = nullptr;  // onto the network-I/O CPUs (NetworkPinCpus)
  // A worker thread per CPU it may use when 0 (-t N), recorded as "threads".
  int Tuning::*worker_threads = nullptr;
  // Runs as a cluster of this many primaries when > 0, recorded as "shards".
  int Tuning::*shards = nullptr;
};

// One engine and the facts that set it apart; code asks these, never the engine's name.
struct EngineSpec {
  std::string name;     // dragonfly | redis | valkey | memcached
  std::string program;  // looked up on PATH: dragonfly, redis-server, valkey-server ...
  // How the first line of `<program> --version` (memcached: -V) starts, the version following:
  // "dragonfly v1.31.0-<commit>", "Redis server v=7.4.2 ...", "memcached 1.6.18".
  std::string version_banner;
  Protocol protocol;
  // Its builds come from its own release archives only (no OS package to fall back on), so a
  // host without one gets the latest release.
  bool versioned_builds = false;
  ReleaseFacts releases;
  // Shard-per-thread: its shard count (--dragonfly_num_shards) shapes every figure.
  bool sharded = false;
  // Installed on the replica hosts too (the engine of the replication scenario).
  bool on_replicas = false;
  // Fills itself with DEBUG POPULATE (the memory scenario), given debug_command_args first:
  // Redis and Valkey refuse DEBUG without --enable-debug-command.
  bool debug_populate = false;
  std::vector<std::string> debug_command_args;
  // BGSAVE writes a snapshot into --dir under --dbfilename (SnapshotArgs).
  bool snapshots = false;
  // A replica gets its master on its command line (--replicaof=host:port), so its full sync
  // starts with it; otherwise it starts empty and REPLICAOF starts the sync.
  bool replicaof_at_start = false;
  TuningFacts tuning;
};

// The engines dfbench knows, in the order of --engines' default plus memcached.
const std::vector<EngineSpec>& KnownEngines();
// nullptr for an unknown name.
const EngineSpec* FindEngine(const std::string& name);
// Parses "dragonfly,redis" into specs; kUsage naming the unknown engine and the known ones.
core::Result<std::vector<const EngineSpec*>> ParseEngineList(const std::string& csv);

// The flags a tuning adds for one engine, as recorded in results.json ("io_threads",
// "num_shards", "conn_use_incoming_cpu", "threads" (memcached), "cpus").
nlohmann::json TuningJson(const EngineSpec& spec, const Tuning& tuning);
// Whether `tuning` asks to pin `spec` onto the network-I/O CPUs (its own pin_network field).
bool PinsNetwork(const EngineSpec& spec, const Tuning& tuning);

// How `tuning` deploys `spec`: one process, or a cluster of `shards` primaries that dfbench forms;
// and whether a client must speak the cluster protocol to it (such a cluster, or Dragonfly's
// emulated one).
struct Topology {
  int shards = 0;
  bool cluster = false;
  int processes() const { return shards > 0 ? shards : 1; }
};
Topology TopologyOf(const EngineSpec& spec, const Tuning& tuning);

// The first flag in `tuning` that shapes how dfbench starts `spec` ("--redis_shards",
// "--dragonfly_num_shards", ... as the reference spells them; "" when none): a server someone
// else started (an endpoint) cannot follow one.
std::string StartingFlagOf(const EngineSpec& spec, const Tuning& tuning);

// Values derived on the host, made explicit: dragonfly_num_shards -1 becomes
// (CPUs the engine may use) - 2 * rx_queues, at least 1, where the CPUs are the pinned list or
// else `host_vcpus`, capped by dragonfly_proactor_threads when set; and a pinned dragonfly gets
// proactor_threads = the pinned count; memcached_threads 0 becomes the pinned count or else
// `host_vcpus`. `rx_queues` is 0 where the NIC queues are unknown.
Tuning ResolveTuning(const EngineSpec& spec, const Tuning& tuning, int host_vcpus,
                     int rx_queues = 0);

// The CPUs that handle network I/O once `setup --tune-network` steered the NIC there: the top
// 2 x rx_queues CPUs (at most vcpus - 1, so CPU 0 stays out). Empty when the queues are unknown.
std::vector<int> NetworkIoCpus(int vcpus, int rx_queues);
// Where --redis_pin_network / --valkey_pin_network put Redis and Valkey: CPU 0 plus
// NetworkIoCpus. Empty (no pinning) when the queues are unknown.
std::vector<int> NetworkPinCpus(int vcpus, int rx_queues);

// The files an engine serves TLS with, as paths on its host. Every client must show a certificate
// the CA signed: Dragonfly serves TLS only to clients it can authenticate (a certificate or a
// password), and the others are held to the same.
struct ServerTlsFiles {
  std::string cert;
  std::string key;
  std::string ca;
};

// An engine that serves TLS alone: its files, and this machine's client context (the CA and a
// client certificate) for the control requests dfbench sends it.
struct EngineTls {
  ServerTlsFiles files;
  std::shared_ptr<const protocol::TlsContext> control;
};

// The ACL user an engine is given for one run: every command and key, a random password that
// lives as long as the engine; the default user is then turned off.
struct AclUser {
  std::string name;
  std::string password;
};
inline constexpr const char* kRunAclUserName = "dfbench-run";
// kRunAclUserName with 32 random hex digits as its password.
AclUser MakeRunAclUser();

// Where one start of an engine runs.
struct LaunchParams {
  std::string binary;
  std::string address;  // bind address
  int port = 0;
  std::string work_dir;     // the engine's --dir (nothing is saved there: persistence is off)
  std::string run_as_user;  // memcached refuses root without -u: set when the host runs as root
  // A Redis Cluster node: its bus port (its nodes file is nodes-<port>.conf in work_dir); 0 for
  // a process of its own.
  int cluster_bus_port = 0;
  // Set: the port serves TLS alone (clients with a certificate of the CA).
  std::optional<ServerTlsFiles> tls;
};

// Where a cluster node keeps its view of the cluster (redis-server's --cluster-config-file).
std::string ClusterConfigPath(const LaunchParams& params);

// The flags that send a snapshot of an engine with `snapshots` to `dir`/`file` (the last
// --dir and --dbfilename win over BuildArgv's).
std::vector<std::string> SnapshotArgs(const std::string& dir, const std::string& file);

// The flag that makes an engine with `replicaof_at_start` a replica of `host`:`port` from its
// start.
std::vector<std::string> ReplicaOfArgs(const std::string& host, int port);

// The engine's command line (pure). `tuning` must be resolved (no dragonfly_num_shards -1).
std::vector<std::string> BuildArgv(const EngineSpec& spec, const Tuning& tuning,
                                   const LaunchParams& params);

// "redis 7.0.15", "valkey 8.0.1", "dragonfly v1.27.0" from an INFO server body; "" if it names
// no version.
std::string VersionFromInfo(const std::string& info_server);

// What the engine reports of its own threads, added to `tuning` (TuningJson) where the start
// left it to the engine: Dragonfly's proactor count (INFO server `thread_count`) as
// "proactor_threads" when its command line set none. Other engines' tuning is left as it is.
void AddReportedTuning(const EngineSpec& spec, const std::string& info_server,
                       nlohmann::json* tuning);

// `<binary> --version` (memcached: `-V`) on the host: its first line, trimmed and without colour
// codes; kEnvironment if it fails.
core::Result<std::string> ProbeVersion(hosts::Host& host, const std::string& binary,
                                       const EngineSpec& spec);

// The version a ProbeVersion line names, as a cache directory calls it: "v1.40.0-87-gf8eca6d0b"
// (Dragonfly's trailing commit hash dropped), "7.4.2", "1.6.18". kUsage when the line is not
// `spec`'s (its version_banner does not start it, or no version follows).
core::Result<std::string> VersionLabel(const EngineSpec& spec, const std::string& version_line);

struct StartOptions {
  int port = 0;  // 0: a free port of the host
  std::chrono::milliseconds ready_timeout = std::chrono::seconds(20);
  std::chrono::milliseconds stop_grace = std::chrono::seconds(5);
  // False for a replica started with its master given: it is read-only and gets its data from
  // the master.
  bool flush = true;
  // > 0: start as a Redis Cluster node with this bus port, its nodes file new.
  int cluster_bus_port = 0;
  // Set: serve TLS alone (not memcached: kUsage), and send control requests over it.
  std::optional<EngineTls> tls;
  // Set: once ready, the engine gets this ACL user and its default user is turned off; control
  // requests authenticate as it (not memcached: kUsage).
  std::optional<AclUser> acl;
  // What times the ready wait, the stop's grace and a cluster's formation (never null).
  core::Clock* clock = &core::RealClock();
};

// How dfbench meets a server it did not start (an endpoint): never started, stopped or
// installed, reached at `endpoint`.
struct AttachOptions {
  protocol::ServerEndpoint endpoint;
  // "": the server is the run's to flush (FLUSHALL). Otherwise the run's keys all start with it,
  // and a flush, and the end of the turn, remove those keys alone (SCAN + UNLINK).
  std::string key_namespace;
};

// A started engine (or an attached endpoint). Stop() is idempotent; the destructor stops it too,
// so no engine outlives the scope that started it.
class RunningEngine {
 public:
  RunningEngine(RunningEngine&&) noexcept;
  RunningEngine& operator=(RunningEngine&&) = delete;
  ~RunningEngine();

  const EngineSpec& spec() const { return *spec_; }
  const std::string& address() const { return address_; }
  int port() const { return port_; }
  // Where dfbench itself reaches the engine for control requests (INFO, FLUSHALL, REPLICAOF):
  // address:port on this machine, a forwarded local port on an SSH host; an endpoint's own
  // address, TLS and credentials.
  const protocol::ServerEndpoint& control() const { return control_; }
  // Whether dfbench started this engine (false: an endpoint, AttachOptions).
  bool started() const { return host_ != nullptr; }
  // AttachOptions::key_namespace ("" for an engine whose keyspace is the run's).
  const std::string& key_namespace() const { return key_namespace_; }
  // Version as the server reports it (INFO server / memcached "version"), e.g.
  // "redis 7.0.15", "dragonfly v1.27.0", "valkey 8.0.1", "memcached 1.6.18".
  const std::string& version() const { return version_; }
  const std::string& log_path() const { return daemon_.log_path; }
  // The pid on the server host (-1 once stopped).
  int pid() const { return daemon_.pid; }
  // TuningJson of the resolved tuning this engine was started with (derived values included).
  const nlohmann::json& tuning() const { return tuning_; }

  // PING (memcached: "version"). kFailure with the log tail when the engine is gone.
  core::Status HealthCheck();
  // FLUSHALL (memcached: flush_all); with a key namespace, its keys removed instead.
  core::Status Flush();
  // The keys it holds (DBSIZE); with a key namespace, the keys under it (SCAN).
  core::Result<uint64_t> KeyCount();
  // True while the process is alive (an endpoint: while it answers PING).
  bool Alive();
  // SHUTDOWN NOSAVE (memcached: none), then SIGTERM/SIGKILL of the started pid. An endpoint is
  // left running, the keys under its namespace removed.
  core::Status Stop();
  // The last lines of the engine's log.
  std::string LogTail();

 private:
  friend core::Result<RunningEngine> Start(hosts::Host&, const EngineSpec&, const std::string&,
                                           const Tuning&, const StartOptions&);
  friend core::Result<RunningEngine> Attach(const EngineSpec&, const AttachOptions&);
  RunningEngine(hosts::Host* host, const EngineSpec* spec, hosts::DaemonHandle daemon,
                std::string address, int port, protocol::ServerEndpoint control,
                nlohmann::json tuning, StartOptions options)
      : host_(host),
        spec_(spec),
        daemon_(std::move(daemon)),
        address_(std::move(address)),
        port_(port),
        control_(std::move(control)),
        tuning_(std::move(tuning)),
        options_(std::move(options)) {}

  // Removes the keys under key_namespace_ (SCAN + UNLINK), on an endpoint.
  core::Status RemoveNamespace();
  // Gives the engine `user` and turns its default user off; control requests authenticate as
  // `user` from then on.
  core::Status AdmitOnly(const AclUser& user);

  hosts::Host* host_ = nullptr;  // null: an endpoint dfbench did not start
  const EngineSpec* spec_ = nullptr;
  hosts::DaemonHandle daemon_;
  std::string address_;
  int port_ = 0;
  protocol::ServerEndpoint control_;
  std::string version_;
  nlohmann::json tuning_;
  StartOptions options_;
  std::string key_namespace_;
  bool stopped_ = false;
};

// Starts `binary` on options.port (else a free port) of host.EngineAddress() with persistence off
// and the tuning applied (resolved with the host's vCPUs and NIC receive queues, pinned to
// tuning.cpus or to NetworkPinCpus for *_pin_network), logging to <work dir>/<name>-<port>.log;
// waits until it answers PING (bounded by ready_timeout), reads its version and flushes it (unless
// options.flush is false). kEnvironment "<name> failed to start: <reason>; last log lines:\n<tail>"
// when it exits or never answers (the process is killed); kInterrupted on SIGINT/SIGTERM.
core::Result<RunningEngine> Start(hosts::Host& host, const EngineSpec& spec,
                                  const std::string& binary, const Tuning& tuning,
                                  const StartOptions& options = {});

// Meets a server dfbench did not start: answers PING (kEnvironment naming the endpoint when not:
// unreachable, TLS refused, credentials refused), its version from INFO server ("<engine>
// (version unknown)" where INFO is refused), the commands it does not offer (renamed or removed
// by a managed service: COMMAND INFO) recorded in tuning() as "unavailable_commands", never fatal.
// Flushed as options.key_namespace says.
core::Result<RunningEngine> Attach(const EngineSpec& spec, const AttachOptions& options);

// The engine an INFO server body names ("redis", "valkey", "dragonfly"), "" when none.
std::string EngineFromInfo(const std::string& info_server);

}  // namespace dfbench::engines
