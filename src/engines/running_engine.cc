// An engine's lifecycle on a host: start, wait until it answers, version, flush, health, stop.
#include <signal.h>

#include <algorithm>
#include <random>

#include "core/interrupt.h"
#include "core/log.h"
#include "engines/engine.h"
#include "protocol/blocking_client.h"
#include "protocol/server_endpoint.h"

namespace dfbench::engines {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kPollInterval{50};
constexpr milliseconds kControlTimeout{2000};
constexpr size_t kTailBytes = 4096;
constexpr int kTailLines = 20;

std::string FormatDuration(milliseconds d) {
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + "s";
  return std::to_string(d.count()) + "ms";
}

// The last kTailLines lines of `text`, without a trailing newline.
std::string LastLines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  size_t pos = text.size();
  for (int i = 0; i < kTailLines && pos != std::string::npos && pos > 0; ++i) {
    pos = text.rfind('\n', pos - 1);
  }
  if (pos != std::string::npos && pos > 0) text = text.substr(pos + 1);
  size_t first = text.find_first_not_of("\r\n");
  return first == std::string::npos ? "" : text.substr(first);
}

std::string WithTail(const std::string& message, const std::string& tail,
                     const std::string& log_path) {
  if (tail.empty()) return message + " (log " + log_path + " is empty)";
  return message + "; last log lines:\n" + tail;
}

// memcached's answer to "version": the version it names.
core::Result<std::string> MemcachedVersion(protocol::BlockingClient& client) {
  auto lines = client.MemcacheCommand("version");
  if (!lines) return tl::unexpected(lines.error());
  constexpr std::string_view kPrefix = "VERSION ";
  if (lines->empty() || !lines->back().starts_with(kPrefix)) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "unexpected reply to version: " + (lines->empty() ? "" : lines->back()));
  }
  return lines->back().substr(kPrefix.size());
}

// The request whose answer says the engine serves clients (Ping).
std::string ReadySignal(const EngineSpec& spec) {
  return spec.protocol == Protocol::kMemcacheText ? "version" : "PING";
}

// One request that proves the engine serves clients: PING, or memcached's "version".
core::Status Ping(const EngineSpec& spec, const protocol::ServerEndpoint& endpoint,
                  milliseconds timeout) {
  auto client = protocol::ConnectTo(endpoint, timeout);
  if (!client) return tl::unexpected(client.error());
  if (spec.protocol == Protocol::kMemcacheText) {
    return MemcachedVersion(*client).and_then([](const std::string&) { return core::Ok(); });
  }
  auto reply = client->Command({"PING"});
  if (!reply) return tl::unexpected(reply.error());
  if (reply->is_error()) {
    return core::Fail(core::ErrorKind::kEnvironment, "PING answered " + reply->str);
  }
  return core::Ok();
}

// The version the engine reports; what it reports of its threads goes into `tuning`.
core::Result<std::string> ReadVersion(const EngineSpec& spec,
                                      const protocol::ServerEndpoint& endpoint,
                                      nlohmann::json* tuning) {
  auto client = protocol::ConnectTo(endpoint, kControlTimeout);
  if (!client) return tl::unexpected(client.error());
  if (spec.protocol == Protocol::kMemcacheText) {
    auto version = MemcachedVersion(*client);
    if (!version) return tl::unexpected(version.error());
    return "memcached " + *version;
  }
  auto reply = client->Command({"INFO", "server"});
  if (!reply) return tl::unexpected(reply.error());
  if (reply->is_error()) {
    return core::Fail(core::ErrorKind::kEnvironment, "INFO server answered " + reply->str);
  }
  std::string version = VersionFromInfo(reply->str);
  if (version.empty()) {
    return core::Fail(core::ErrorKind::kEnvironment, "INFO server names no version");
  }
  AddReportedTuning(spec, reply->str, tuning);
  return version;
}

// memcached only drops root privileges when told to which user; ask the host who we are.
std::string RunAsUser(hosts::Host& host, const EngineSpec& spec) {
  if (spec.protocol != Protocol::kMemcacheText) return "";
  auto id = host.Run({.argv = {"id", "-u"}, .timeout = std::chrono::seconds(10)});
  if (id && id->status.ok() && id->out.substr(0, id->out.find('\n')) == "0") return "root";
  return "";
}

}  // namespace

namespace {

// `tuning` as the engine will run: derived shard counts and network pinning worked out from
// the host's facts (read only when needed).
core::Result<Tuning> TuningOnHost(hosts::Host& host, const EngineSpec& spec, const Tuning& tuning) {
  const bool derive_shards = tuning.dragonfly_num_shards && *tuning.dragonfly_num_shards < 0;
  const bool pin_network = PinsNetwork(spec, tuning);
  int vcpus = 0, rx_queues = 0;
  // An engine with a worker thread per CPU (memcached) counts the host's vCPUs when unpinned.
  const bool count_cpus =
      spec.tuning.worker_threads && tuning.*spec.tuning.worker_threads <= 0 && tuning.cpus.empty();
  if (derive_shards || (pin_network && tuning.cpus.empty()) || count_cpus) {
    auto facts = host.Facts(core::Role::Server());
    if (!facts) return tl::unexpected(facts.error());
    vcpus = facts->vcpus;
    rx_queues = facts->rx_queues;
  }
  Tuning effective = tuning;
  if (pin_network) {
    // A role already pinned (the local provider's split) keeps its CPUs; unknown NIC queues
    // mean no pinning. Either way the record says it was not applied.
    std::vector<int> cpus =
        tuning.cpus.empty() ? NetworkPinCpus(vcpus, rx_queues) : std::vector<int>{};
    effective.*spec.tuning.pin_network = !cpus.empty();
    if (!cpus.empty()) effective.cpus = cpus;
  }
  return ResolveTuning(spec, effective, vcpus, rx_queues);
}

// Waits until the started engine answers its ready signal; any way out but success stops it
// and says why, with its log's tail.
core::Status WaitUntilAnswering(hosts::Host& host, const EngineSpec& spec,
                                hosts::DaemonHandle& daemon,
                                const protocol::ServerEndpoint& control, const LaunchParams& params,
                                const std::string& log_path, milliseconds ready_timeout,
                                core::Clock& clock) {
  auto give_up = [&](core::ErrorKind kind, const std::string& reason) {
    host.StopDaemon(daemon, milliseconds(500));
    host.ReleaseControlEndpoint(params.port);
    std::string tail = LastLines(host.ReadTail(log_path, kTailBytes));
    return core::Fail(kind, WithTail(spec.name + " failed to start: " + reason, tail, log_path));
  };
  const auto deadline = clock.Now() + ready_timeout;
  while (true) {
    if (!host.DaemonAlive(daemon)) {
      std::string how = daemon.exit_status ? " (" + daemon.exit_status->Describe() + ")" : "";
      return give_up(core::ErrorKind::kEnvironment, params.binary + " exited during startup" + how);
    }
    // Bounded by what is left, so a port that accepts but never answers cannot overrun.
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - clock.Now());
    auto ping = Ping(spec, control, std::clamp(left, kPollInterval, kControlTimeout));
    if (ping) return core::Ok();
    if (clock.Now() >= deadline) {
      return give_up(core::ErrorKind::kEnvironment,
                     "no answer to " + ReadySignal(spec) + " on " + params.address + ":" +
                         std::to_string(params.port) + " within " + FormatDuration(ready_timeout) +
                         " (the last try: " + ping.error().message + ")");
    }
    if (!core::SleepUnlessInterrupted(kPollInterval, clock)) {
      return give_up(core::ErrorKind::kInterrupted, "interrupted");
    }
  }
}

}  // namespace

core::Result<RunningEngine> Start(hosts::Host& host, const EngineSpec& spec,
                                  const std::string& binary, const Tuning& tuning,
                                  const StartOptions& options) {
  auto fail = [&](const core::Error& e) {
    return core::Fail(e.kind, spec.name + " failed to start: " + e.message);
  };
  if ((options.tls || options.acl) && spec.protocol != Protocol::kRedis) {
    return core::Fail(core::ErrorKind::kUsage,
                      spec.name +
                          " is started without TLS or ACL users: engines have them over "
                          "the Redis protocol only");
  }
  auto work_dir = host.WorkDir();
  if (!work_dir) return fail(work_dir.error());
  auto port = options.port > 0 ? core::Result<int>(options.port) : host.FreePort();
  if (!port) return fail(port.error());
  auto resolved = TuningOnHost(host, spec, tuning);
  if (!resolved) return fail(resolved.error());
  LaunchParams params{.binary = binary,
                      .address = host.EngineAddress(),
                      .port = *port,
                      .work_dir = *work_dir,
                      .run_as_user = RunAsUser(host, spec),
                      .cluster_bus_port = options.cluster_bus_port};
  if (options.tls) params.tls = options.tls->files;
  if (options.cluster_bus_port > 0) {
    // A nodes file left by an earlier node on this port would make it rejoin that cluster.
    auto removed = host.Run({.argv = {"rm", "-f", ClusterConfigPath(params)}});
    if (!removed) return fail(removed.error());
  }
  auto forwarded = host.ControlEndpoint(*port);
  if (!forwarded) return fail(forwarded.error());
  const protocol::ServerEndpoint control{.address = forwarded->address,
                                         .port = forwarded->port,
                                         .tls = options.tls ? options.tls->control : nullptr};
  const std::string log_path = *work_dir + "/" + spec.name + "-" + std::to_string(*port) + ".log";
  auto daemon = host.StartDaemon({.argv = BuildArgv(spec, *resolved, params),
                                  .log_path = log_path,
                                  .cpus = resolved->cpus,
                                  .working_dir = *work_dir});
  if (!daemon) {
    host.ReleaseControlEndpoint(*port);
    return fail(daemon.error());
  }
  if (auto st = WaitUntilAnswering(host, spec, *daemon, control, params, log_path,
                                   options.ready_timeout, *options.clock);
      !st) {
    return tl::unexpected(st.error());
  }
  RunningEngine engine(&host, &spec, std::move(*daemon), params.address, params.port, control,
                       TuningJson(spec, *resolved), options);
  auto version = ReadVersion(spec, control, &engine.tuning_);
  if (!version) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        WithTail(spec.name + " started but its version is unreadable: " + version.error().message,
                 engine.LogTail(), log_path));
  }
  engine.version_ = *version;
  if (options.flush) {
    if (auto flushed = engine.Flush(); !flushed) return tl::unexpected(flushed.error());
  }
  if (options.acl) {
    if (auto admitted = engine.AdmitOnly(*options.acl); !admitted) {
      return tl::unexpected(admitted.error());
    }
  }
  return engine;
}

RunningEngine::RunningEngine(RunningEngine&& other) noexcept
    : host_(other.host_),
      spec_(other.spec_),
      daemon_(std::move(other.daemon_)),
      address_(std::move(other.address_)),
      port_(other.port_),
      control_(std::move(other.control_)),
      version_(std::move(other.version_)),
      tuning_(std::move(other.tuning_)),
      options_(std::move(other.options_)),
      key_namespace_(std::move(other.key_namespace_)),
      stopped_(other.stopped_) {
  other.stopped_ = true;  // the moved-from shell owns no process
}

RunningEngine::~RunningEngine() {
  Stop();
}

bool RunningEngine::Alive() {
  if (stopped_) return false;
  if (!host_) return Ping(*spec_, control_, kControlTimeout).has_value();
  return host_->DaemonAlive(daemon_);
}

std::string RunningEngine::LogTail() {
  if (!host_) return "";  // an endpoint's log is not ours to read
  return LastLines(host_->ReadTail(daemon_.log_path, kTailBytes));
}

core::Status RunningEngine::HealthCheck() {
  if (!host_) {
    if (auto ping = Ping(*spec_, control_, kControlTimeout); !ping) {
      return core::Fail(core::ErrorKind::kFailure, spec_->name + " does not answer on " + address_ +
                                                       ":" + std::to_string(port_) + ": " +
                                                       ping.error().message);
    }
    return core::Ok();
  }
  if (!Alive()) {
    std::string how = daemon_.exit_status ? " (" + daemon_.exit_status->Describe() + ")" : "";
    return core::Fail(
        core::ErrorKind::kFailure,
        WithTail(spec_->name + " is no longer running" + how, LogTail(), daemon_.log_path));
  }
  if (auto ping = Ping(*spec_, control_, kControlTimeout); !ping) {
    return core::Fail(core::ErrorKind::kFailure,
                      WithTail(spec_->name + " does not answer on " + address_ + ":" +
                                   std::to_string(port_) + ": " + ping.error().message,
                               LogTail(), daemon_.log_path));
  }
  return core::Ok();
}

core::Status RunningEngine::Flush() {
  if (!key_namespace_.empty()) return RemoveNamespace();
  auto client = protocol::ConnectTo(control_, kControlTimeout);
  if (!client)
    return tl::unexpected(core::WithContext(client.error(), "cannot flush " + spec_->name));
  // Flushing a large dataset can take a while.
  client->set_timeout(std::chrono::seconds(60));
  if (spec_->protocol == Protocol::kMemcacheText) {
    auto lines = client->MemcacheCommand("flush_all");
    if (!lines)
      return tl::unexpected(core::WithContext(lines.error(), "cannot flush " + spec_->name));
    if (lines->empty() || lines->back() != "OK") {
      return core::Fail(core::ErrorKind::kFailure, spec_->name + " refused flush_all: " +
                                                       (lines->empty() ? "" : lines->back()));
    }
    return core::Ok();
  }
  // An endpoint named with a database: that database is the run's, the others are not.
  const std::string flush = control_.db != 0 ? "FLUSHDB" : "FLUSHALL";
  auto reply = client->Command({flush});
  if (!reply)
    return tl::unexpected(core::WithContext(reply.error(), "cannot flush " + spec_->name));
  if (reply->is_error()) {
    return core::Fail(core::ErrorKind::kFailure,
                      spec_->name + " refused " + flush + ": " + reply->str);
  }
  return core::Ok();
}

AclUser MakeRunAclUser() {
  std::random_device random;
  std::string password;
  for (int i = 0; i < 32; ++i) password += "0123456789abcdef"[random() % 16];
  return {kRunAclUserName, password};
}

core::Status RunningEngine::AdmitOnly(const AclUser& user) {
  auto client = protocol::ConnectTo(control_, kControlTimeout);
  if (!client) return tl::unexpected(client.error());
  // Every command and key: the load's commands, and SHUTDOWN, INFO and FLUSHALL of dfbench's.
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"ACL", "SETUSER", user.name, "on", ">" + user.password, "~*",
                                 "+@all"},
        {"ACL", "SETUSER", "default", "off"}}) {
    auto reply = client->Command(command);
    if (!reply) return tl::unexpected(reply.error());
    if (reply->is_error()) {
      return core::Fail(core::ErrorKind::kEnvironment,
                        spec_->name + " refused ACL SETUSER " + command[2] + ": " + reply->str);
    }
  }
  control_.user = user.name;
  control_.password = user.password;
  return core::Ok();
}

core::Status RunningEngine::Stop() {
  if (stopped_) return core::Ok();
  stopped_ = true;
  // An endpoint keeps running: only what this run wrote there goes.
  if (!host_) return key_namespace_.empty() ? core::Ok() : RemoveNamespace();
  if (spec_->protocol == Protocol::kRedis && host_->DaemonAlive(daemon_)) {
    // A clean shutdown; the server closes the connection instead of replying, so the exit is
    // what counts, and the answer only explains an engine that stays.
    std::string answer;
    if (auto client = protocol::ConnectTo(control_, kControlTimeout)) {
      auto reply = client->Command({"SHUTDOWN", "NOSAVE"});
      answer = !reply ? reply.error().message : reply->str;
    } else {
      answer = client.error().message;
    }
    // Plain sleeps: stopping must finish even after an interrupt.
    core::Clock& clock = *options_.clock;
    const auto deadline = clock.Now() + options_.stop_grace;
    while (host_->DaemonAlive(daemon_) && clock.Now() < deadline) clock.SleepFor(milliseconds(20));
    if (host_->DaemonAlive(daemon_)) {
      core::Notef("[{}] still running {} after SHUTDOWN NOSAVE (it answered: {}); sending SIGTERM",
                  spec_->name, FormatDuration(options_.stop_grace),
                  answer.empty() ? "nothing" : answer);
    }
  }
  auto stopped = host_->StopDaemon(daemon_, options_.stop_grace);
  if (daemon_.exit_status && daemon_.exit_status->signal == SIGKILL) {
    core::Notef("[{}] did not exit within {} of SIGTERM; killed with SIGKILL", spec_->name,
                FormatDuration(options_.stop_grace));
  }
  host_->ReleaseControlEndpoint(port_);
  return stopped;
}

}  // namespace dfbench::engines
