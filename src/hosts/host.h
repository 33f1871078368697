// A machine that dfbench runs programs on: this one (LocalHost) or one reached over SSH.
// Engines, drivers and providers talk to hosts only through this interface.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/host_facts.h"
#include "core/role.h"
#include "core/subprocess.h"

namespace dfbench::hosts {

// A command to run to completion on a host.
struct CommandSpec {
  std::vector<std::string> argv;  // never passed through a shell unquoted
  std::chrono::milliseconds timeout = std::chrono::seconds(60);
  std::vector<int> cpus;  // pin to these CPUs; empty = no pinning
  // When set, the command's stderr goes straight to ours (live progress) instead of being
  // captured; stdout is still captured.
  bool stream_stderr = false;
  // A file on this machine fed to the command's stdin; empty: no input.
  std::string stdin_path;
  // Set in the command's environment: a secret (a password) kept off its command line, where
  // any user of the host could read it (an SSH host sends it on the command's stdin, which it
  // then cannot take a file from).
  std::vector<std::pair<std::string, std::string>> env;
  core::Interrupts interrupts = core::Interrupts::kObey;
};

struct CommandOutput {
  core::ExitStatus status;
  std::string out;
  std::string err;
};

// A long-running program (an engine) started on a host.
struct DaemonSpec {
  std::vector<std::string> argv;
  std::string log_path;   // stdout and stderr go here (a path on the host)
  std::vector<int> cpus;  // empty = no pinning
  std::string working_dir;
};

// Opaque handle to a started daemon; only the host that started it understands it.
struct DaemonHandle {
  int pid = -1;
  std::string log_path;
  std::string description;  // argv[0], for messages
  // Set by DaemonAlive/StopDaemon once the host saw the daemon end (when it can tell how).
  std::optional<core::ExitStatus> exit_status;
};

// A TCP address and port as this machine reaches them.
struct TcpEndpoint {
  std::string address;
  int port = 0;
};

// What differs between hosts is virtual; file transfers and reads are written once on Run.
class Host {
 public:
  virtual ~Host() = default;

  // A short name for messages ("local", "server (10.0.0.2)").
  virtual std::string Name() const = 0;
  // The address engines on this host bind to and clients connect to.
  virtual std::string EngineAddress() const = 0;

  // Runs a command to completion. A non-zero exit is not an error; starting failures are
  // kEnvironment, timeouts kFailure, SIGINT/SIGTERM kInterrupted (the command is killed).
  virtual core::Result<CommandOutput> Run(const CommandSpec& spec) = 0;

  // Starts a daemon in the background; it dies with dfbench if dfbench dies.
  virtual core::Result<DaemonHandle> StartDaemon(const DaemonSpec& spec) = 0;
  // True while the daemon's process exists (and is not a zombie).
  virtual bool DaemonAlive(DaemonHandle& handle) = 0;
  // SIGTERM, wait up to `grace`, SIGKILL; reaps it. Idempotent.
  virtual core::Status StopDaemon(DaemonHandle& handle, std::chrono::milliseconds grace) = 0;

  // The last `max_bytes` of a file on the host from a line start ("" when unreadable).
  std::string ReadTail(const std::string& path, size_t max_bytes);
  // Copies a file from the host to this machine; a failed copy leaves no local file.
  core::Status Fetch(const std::string& remote_path, const std::filesystem::path& local_path);
  // Copies a file from this machine to `remote_path`, an absolute path on the host (parent
  // directories created, replaced atomically), with permission bits `mode`.
  core::Status Upload(const std::filesystem::path& local_path, const std::string& remote_path,
                      unsigned mode);
  // A scratch directory on the host for logs and reports, created on first use.
  virtual core::Result<std::string> WorkDir() = 0;

  // CPU, memory, kernel, OS facts. `role` is copied into the result.
  virtual core::Result<core::HostFacts> Facts(core::Role role) = 0;
  // Where this machine reaches `port` of EngineAddress() for the requests dfbench sends itself
  // (readiness, INFO, FLUSHALL, REPLICAOF, counters); load generators run on hosts and connect
  // directly. Default: the address itself. Opened on first use, kept until released.
  virtual core::Result<TcpEndpoint> ControlEndpoint(int port) {
    return TcpEndpoint{EngineAddress(), port};
  }
  // Closes what ControlEndpoint opened for `port`. Idempotent.
  virtual void ReleaseControlEndpoint(int /*port*/) {}
  // True when a program listens on TCP `port` of this host (any address), as the host sees it.
  virtual core::Result<bool> PortListening(int port);
  // A TCP port that is free on EngineAddress() right now.
  virtual core::Result<int> FreePort() = 0;
  // Absolute path of a program on the host's PATH (sbin included), or nullopt.
  virtual std::optional<std::string> Which(const std::string& program) = 0;
  // Path of the dfbench binary usable on this host (local: our own executable).
  virtual core::Result<std::string> DfbenchBinary() = 0;
};

}  // namespace dfbench::hosts
