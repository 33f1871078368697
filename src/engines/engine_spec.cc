// The engine table and everything about an engine that needs no running process: list
// parsing, tuning resolution, command lines, version strings.
#include <algorithm>
#include <charconv>
#include <set>

#include "core/check.h"
#include "core/text.h"
#include "engines/engine.h"
#include "protocol/blocking_client.h"

namespace dfbench::engines {
namespace {

std::string KnownNames() {
  std::string names;
  for (const auto& e : KnownEngines()) names += (names.empty() ? "" : ", ") + e.name;
  return names;
}

void Append(std::vector<std::string>& argv, std::initializer_list<std::string> args) {
  argv.insert(argv.end(), args.begin(), args.end());
}

// Redis and its fork Valkey: "<name>-server" with redis-server's command line, DEBUG behind a
// switch, snapshots; each has its own releases and its own io-threads and pinning fields.
EngineSpec RedisFamily(const std::string& name, const std::string& banner, ReleaseFacts releases,
                       int Tuning::*io_threads, bool Tuning::*pin_network, int Tuning::*shards) {
  const std::string program = name + "-server";
  releases.source_release = true;
  releases.archive_binary = program;
  return {.name = name,
          .program = program,
          .version_banner = banner,
          .protocol = Protocol::kRedis,
          .releases = std::move(releases),
          .debug_populate = true,
          .debug_command_args = {"--enable-debug-command", "yes"},
          .snapshots = true,
          .tuning = {.command_line = CommandLine::kRedisServer,
                     .io_threads = io_threads,
                     .pin_network = pin_network,
                     .shards = shards}};
}

}  // namespace

const std::vector<EngineSpec>& KnownEngines() {
  static const std::vector<EngineSpec> engines = {
      {.name = "dragonfly",
       .program = "dragonfly",
       .version_banner = "dragonfly ",
       .protocol = Protocol::kRedis,
       .versioned_builds = true,
       .releases = {.base_url = "https://github.com/dragonflydb/dragonfly/releases",
                    .tag_prefix = "v",
                    .builds = PublishedBuilds::kGithubAssets,
                    // The archive names it after its arch: dragonfly-x86_64.
                    .archive_binary = "dragonfly*"},
       .sharded = true,
       .on_replicas = true,
       .debug_populate = true,
       .snapshots = true,
       .replicaof_at_start = true,
       .tuning = {.command_line = CommandLine::kDragonfly}},
      RedisFamily("redis", "Redis server v=",
                  {.base_url = "https://download.redis.io/releases", .known_latest = "7.4.2"},
                  &Tuning::redis_io_threads, &Tuning::redis_pin_network, &Tuning::redis_shards),
      RedisFamily("valkey", "Valkey server v=",
                  {.base_url = "https://download.valkey.io/releases",
                   .known_latest = "8.0.2",
                   .builds = PublishedBuilds::kUbuntuBuilds},
                  &Tuning::valkey_io_threads, &Tuning::valkey_pin_network, &Tuning::valkey_shards),
      {.name = "memcached",
       .program = "memcached",
       .version_banner = "memcached ",
       .protocol = Protocol::kMemcacheText,
       .releases = {.base_url = "https://memcached.org/files",
                    .known_latest = "1.6.38",
                    .source_release = true,
                    .archive_binary = "memcached"},
       .tuning = {.command_line = CommandLine::kMemcached,
                  .worker_threads = &Tuning::memcached_threads}},
  };
  return engines;
}

const EngineSpec* FindEngine(const std::string& name) {
  for (const auto& e : KnownEngines()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

core::Result<std::vector<const EngineSpec*>> ParseEngineList(const std::string& csv) {
  std::vector<const EngineSpec*> specs;
  std::set<std::string> seen;
  size_t start = 0;
  while (true) {
    size_t comma = csv.find(',', start);
    std::string name =
        core::Trim(csv.substr(start, comma == std::string::npos ? comma : comma - start));
    if (name.empty()) {
      return core::Fail(core::ErrorKind::kUsage,
                        "empty engine name in \"" + csv + "\" (known: " + KnownNames() + ")");
    }
    const EngineSpec* spec = FindEngine(name);
    if (!spec) {
      return core::Fail(core::ErrorKind::kUsage,
                        "unknown engine \"" + name + "\" (known: " + KnownNames() + ")");
    }
    if (!seen.insert(name).second) {
      return core::Fail(core::ErrorKind::kUsage, "engine \"" + name + "\" is listed twice");
    }
    specs.push_back(spec);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return specs;
}

nlohmann::json TuningJson(const EngineSpec& spec, const Tuning& tuning) {
  const TuningFacts& facts = spec.tuning;
  nlohmann::json j = nlohmann::json::object();
  if (facts.io_threads && tuning.*facts.io_threads > 0) j["io_threads"] = tuning.*facts.io_threads;
  if (facts.command_line == CommandLine::kDragonfly) {
    if (tuning.dragonfly_num_shards) j["num_shards"] = *tuning.dragonfly_num_shards;
    j["conn_use_incoming_cpu"] = tuning.dragonfly_conn_use_incoming_cpu;
    if (tuning.dragonfly_proactor_threads > 0) {
      j["proactor_threads"] = tuning.dragonfly_proactor_threads;
    }
    if (tuning.dragonfly_cluster_emulated) j["cluster_mode"] = "emulated";
  }
  if (facts.shards && tuning.*facts.shards > 0) j["shards"] = tuning.*facts.shards;
  if (facts.worker_threads && tuning.*facts.worker_threads > 0) {
    j["threads"] = tuning.*facts.worker_threads;
  }
  if (PinsNetwork(spec, tuning)) j["pin_network"] = true;
  if (tuning.tls) j["tls"] = true;
  if (tuning.acl_user) j["acl_user"] = kRunAclUserName;
  if (!tuning.cpus.empty()) j["cpus"] = tuning.cpus;
  return j;
}

bool PinsNetwork(const EngineSpec& spec, const Tuning& tuning) {
  return spec.tuning.pin_network && tuning.*spec.tuning.pin_network;
}

Topology TopologyOf(const EngineSpec& spec, const Tuning& tuning) {
  const TuningFacts& facts = spec.tuning;
  if (facts.shards && tuning.*facts.shards > 0) {
    return Topology{.shards = tuning.*facts.shards, .cluster = true};
  }
  const bool emulated =
      facts.command_line == CommandLine::kDragonfly && tuning.dragonfly_cluster_emulated;
  return Topology{.cluster = emulated};
}

std::string StartingFlagOf(const EngineSpec& spec, const Tuning& tuning) {
  const TuningFacts& facts = spec.tuning;
  const std::string prefix = "--" + spec.name + "_";
  if (facts.io_threads && tuning.*facts.io_threads != 0) return prefix + "io_threads";
  if (facts.shards && tuning.*facts.shards > 0) return prefix + "shards";
  if (facts.command_line == CommandLine::kDragonfly) {
    if (tuning.dragonfly_num_shards.value_or(0) != 0) return prefix + "num_shards";
    if (tuning.dragonfly_cluster_emulated) return prefix + "cluster_mode emulated";
  }
  return "";
}

std::string ClusterConfigPath(const LaunchParams& params) {
  return params.work_dir + "/nodes-" + std::to_string(params.port) + ".conf";
}

std::vector<int> NetworkIoCpus(int vcpus, int rx_queues) {
  if (rx_queues <= 0 || vcpus < 2) return {};
  const int n = std::min(2 * rx_queues, vcpus - 1);
  std::vector<int> cpus;
  for (int c = vcpus - n; c < vcpus; ++c) cpus.push_back(c);
  return cpus;
}

std::vector<int> NetworkPinCpus(int vcpus, int rx_queues) {
  std::vector<int> io = NetworkIoCpus(vcpus, rx_queues);
  if (io.empty()) return {};
  io.insert(io.begin(), 0);
  return io;
}

Tuning ResolveTuning(const EngineSpec& spec, const Tuning& tuning, int host_vcpus, int rx_queues) {
  Tuning resolved = tuning;
  const int pinned = static_cast<int>(tuning.cpus.size());
  const TuningFacts& facts = spec.tuning;
  if (facts.worker_threads && resolved.*facts.worker_threads <= 0) {
    resolved.*facts.worker_threads = pinned > 0 ? pinned : std::max(host_vcpus, 1);
  }
  if (facts.command_line != CommandLine::kDragonfly) return resolved;
  // Unpinned, Dragonfly sizes itself to every CPU; pinned, that would oversubscribe the few it
  // has and multiply its maxmemory floor (256 MiB per proactor thread), so size it to the pin.
  if (resolved.dragonfly_proactor_threads <= 0 && pinned > 0) {
    resolved.dragonfly_proactor_threads = pinned;
  }
  if (tuning.dragonfly_num_shards && *tuning.dragonfly_num_shards < 0) {
    int cpus = pinned > 0 ? pinned : std::max(host_vcpus, 1);
    if (resolved.dragonfly_proactor_threads > 0) {
      cpus = std::min(cpus, resolved.dragonfly_proactor_threads);
    }
    resolved.dragonfly_num_shards = std::max(1, cpus - 2 * rx_queues);
  }
  return resolved;
}

std::vector<std::string> SnapshotArgs(const std::string& dir, const std::string& file) {
  return {"--dir", dir, "--dbfilename", file};
}

std::vector<std::string> ReplicaOfArgs(const std::string& host, int port) {
  return {"--replicaof=" + host + ":" + std::to_string(port)};
}

std::vector<std::string> BuildArgv(const EngineSpec& spec, const Tuning& tuning,
                                   const LaunchParams& params) {
  const std::string port = std::to_string(params.port);
  std::vector<std::string> argv = {params.binary};
  const TuningFacts& facts = spec.tuning;
  switch (facts.command_line) {
    case CommandLine::kDragonfly: {
      DFB_CHECK(!tuning.dragonfly_num_shards || *tuning.dragonfly_num_shards >= 0);
      // --version_check=false: a benchmark must not make the engine reach out to Dragonfly's
      // version server (nor depend on a network that may be absent).
      Append(argv, {"--port", port, "--bind", params.address, "--dbfilename=", "--logtostderr",
                    "--dir", params.work_dir, "--version_check=false"});
      if (params.tls) {
        Append(argv, {"--tls", "--tls_cert_file=" + params.tls->cert,
                      "--tls_key_file=" + params.tls->key, "--tls_ca_cert_file=" + params.tls->ca});
      }
      if (tuning.dragonfly_num_shards && *tuning.dragonfly_num_shards > 0) {
        argv.push_back("--num_shards=" + std::to_string(*tuning.dragonfly_num_shards));
      }
      if (tuning.dragonfly_conn_use_incoming_cpu) argv.emplace_back("--conn_use_incoming_cpu");
      int threads = tuning.dragonfly_proactor_threads;
      if (threads <= 0) threads = static_cast<int>(tuning.cpus.size());
      if (threads > 0) argv.push_back("--proactor_threads=" + std::to_string(threads));
      if (tuning.dragonfly_cluster_emulated) argv.emplace_back("--cluster_mode=emulated");
      break;
    }
    case CommandLine::kRedisServer: {
      // With TLS, the port serves TLS alone (--port 0 closes the plain one).
      if (params.tls) {
        Append(argv, {"--port", "0", "--tls-port", port, "--tls-cert-file", params.tls->cert,
                      "--tls-key-file", params.tls->key, "--tls-ca-cert-file", params.tls->ca,
                      "--tls-auth-clients", "yes", "--tls-replication", "yes"});
        if (params.cluster_bus_port > 0) Append(argv, {"--tls-cluster", "yes"});
      } else {
        Append(argv, {"--port", port});
      }
      Append(argv,
             {"--bind", params.address, "--save", "", "--appendonly", "no", "--protected-mode",
              "no", "--daemonize", "no", "--dir", params.work_dir, "--logfile", ""});
      const int io_threads = facts.io_threads ? tuning.*facts.io_threads : 0;
      if (io_threads > 0) Append(argv, {"--io-threads", std::to_string(io_threads)});
      if (params.cluster_bus_port > 0) {
        Append(argv, {"--cluster-enabled", "yes", "--cluster-port",
                      std::to_string(params.cluster_bus_port), "--cluster-config-file",
                      ClusterConfigPath(params)});
      }
      break;
    }
    case CommandLine::kMemcached: {
      Append(argv, {"-l", params.address, "-p", port, "-U", "0", "-m", "1024"});
      int threads = facts.worker_threads ? tuning.*facts.worker_threads : 0;
      if (threads <= 0) threads = static_cast<int>(tuning.cpus.size());
      if (threads > 0) Append(argv, {"-t", std::to_string(threads)});
      if (!params.run_as_user.empty()) Append(argv, {"-u", params.run_as_user});
      break;
    }
  }
  argv.insert(argv.end(), tuning.extra_args.begin(), tuning.extra_args.end());
  return argv;
}

std::string VersionFromInfo(const std::string& info_server) {
  // Dragonfly and Valkey also report a redis_version for compatibility: ask for theirs first.
  std::string v = protocol::InfoField(info_server, "dragonfly_version");
  if (!v.empty()) {
    if (v.rfind("df-", 0) == 0) v = v.substr(3);
    return "dragonfly " + v;
  }
  v = protocol::InfoField(info_server, "valkey_version");
  if (!v.empty()) return "valkey " + v;
  v = protocol::InfoField(info_server, "redis_version");
  if (!v.empty()) return "redis " + v;
  return "";
}

std::string EngineFromInfo(const std::string& info_server) {
  const std::string version = VersionFromInfo(info_server);
  return version.substr(0, version.find(' '));
}

void AddReportedTuning(const EngineSpec& spec, const std::string& info_server,
                       nlohmann::json* tuning) {
  if (spec.tuning.command_line != CommandLine::kDragonfly || tuning->contains("proactor_threads")) {
    return;
  }
  const std::string threads = protocol::InfoField(info_server, "thread_count");
  int count = 0;
  const auto [end, ec] = std::from_chars(threads.data(), threads.data() + threads.size(), count);
  if (ec == std::errc() && end == threads.data() + threads.size() && count > 0) {
    (*tuning)["proactor_threads"] = count;
  }
}

core::Result<std::string> ProbeVersion(hosts::Host& host, const std::string& binary,
                                       const EngineSpec& spec) {
  const std::string flag = spec.protocol == Protocol::kMemcacheText ? "-V" : "--version";
  auto out = host.Run({.argv = {binary, flag}, .timeout = std::chrono::seconds(20)});
  if (!out) {
    if (out.error().kind == core::ErrorKind::kInterrupted) return tl::unexpected(out.error());
    return core::Fail(core::ErrorKind::kEnvironment,
                      binary + " " + flag + " failed: " + out.error().message);
  }
  std::string text = out->out.empty() ? out->err : out->out;
  std::string first = core::Trim(core::WithoutColourCodes(text.substr(0, text.find('\n'))));
  if (!out->status.ok() || first.empty()) {
    std::string detail = core::Trim(out->err.empty() ? out->out : out->err);
    return core::Fail(core::ErrorKind::kEnvironment,
                      binary + " " + flag + " failed (" + out->status.Describe() + ")" +
                          (detail.empty() ? "" : ": " + detail.substr(0, detail.find('\n'))));
  }
  return first;
}

core::Result<std::string> VersionLabel(const EngineSpec& spec, const std::string& version_line) {
  const std::string& banner = spec.version_banner;
  const std::string line = core::Trim(core::WithoutColourCodes(version_line));
  std::string version;
  if (line.rfind(banner, 0) == 0) {
    version = line.substr(banner.size());
    version = version.substr(0, version.find_first_of(" \t"));
  }
  // Dragonfly appends its full commit hash: "v1.40.0-87-gf8eca6d0b-f8eca6d0b05c...".
  if (const size_t dash = version.rfind('-');
      dash != std::string::npos && version.size() - dash - 1 == 40 &&
      version.find_first_not_of("0123456789abcdef", dash + 1) == std::string::npos) {
    version.resize(dash);
  }
  const bool plain = !version.empty() && version.find('/') == std::string::npos &&
                     version.front() != '.' &&
                     version.find_first_of("0123456789") != std::string::npos;
  if (!plain) {
    return core::Fail(core::ErrorKind::kUsage, "not " + spec.name + ": its version line is \"" +
                                                   line + "\", not \"" + banner +
                                                   "<version> ...\"");
  }
  return version;
}

}  // namespace dfbench::engines
