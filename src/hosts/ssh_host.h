// A host reached over SSH with the OpenSSH client. One shared connection per host (ControlMaster
// under the setup's directory), so a run pays one handshake per host, not one per command.
//
// Every remote command is an argument vector quoted argument by argument (hosts/ssh_command.h):
// values from the user reach the remote program verbatim and never as shell syntax. Commands and
// daemons run in their own session on the host, under a work directory
// (~/.dfbench-work/<setup id>/); a command cut short (timeout, Ctrl+C) is killed on the host, and
// daemons left running when the SshHost is destroyed are stopped.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "core/clock.h"
#include "hosts/host.h"
#include "hosts/ssh_command.h"

namespace dfbench::hosts {

struct SshHostOptions {
  core::Role role;  // for messages, and to keep the hosts' local files apart
  SshEndpoint endpoint;
  // The address engines bind to and clients connect to. Empty: the address the host was reached
  // on, as its sshd saw it ($SSH_CONNECTION), which on a NATed cloud host is its private one.
  std::string private_address;
  std::string setup_id;  // names the work directory on the host
  // A private directory on this machine (created 0700) for the connection socket and captured
  // output. endpoint.control_path is derived from it when empty.
  std::filesystem::path local_dir;
  // Times the wait for the connection's master to exit (never null).
  core::Clock* clock = &core::RealClock();
};

class SshHost : public Host {
 public:
  // Logs in and opens the shared connection, then learns the remote user's home, uid and OS.
  // kEnvironment naming the host and ssh's own reason when the host is unreachable or refuses
  // the key; kUsage for an invalid endpoint.
  static core::Result<std::unique_ptr<SshHost>> Connect(SshHostOptions options);
  // Stops daemons and commands still running on the host, then closes the shared connection.
  ~SshHost() override;

  std::string Name() const override;
  std::string EngineAddress() const override { return engine_address_; }
  core::Result<CommandOutput> Run(const CommandSpec& spec) override;
  core::Result<DaemonHandle> StartDaemon(const DaemonSpec& spec) override;
  bool DaemonAlive(DaemonHandle& handle) override;
  core::Status StopDaemon(DaemonHandle& handle, std::chrono::milliseconds grace) override;
  core::Result<std::string> WorkDir() override { return work_dir_; }
  core::Result<core::HostFacts> Facts(core::Role role) override;
  // Always a local port forwarded over the shared connection (ssh -O forward -L), whether or
  // not this machine could reach the engine address directly: private addresses often are
  // not, and the engine port is then never opened to the operator's machine.
  core::Result<TcpEndpoint> ControlEndpoint(int port) override;
  void ReleaseControlEndpoint(int port) override;
  core::Result<int> FreePort() override;
  std::optional<std::string> Which(const std::string& program) override;
  // Uploads the dfbench build for the host's architecture once (cached on the host by content
  // hash): this executable, or the client build beside it (hosts/dfbench_builds.h); checks that
  // it starts there. kEnvironment for a host that is not Linux or has no build.
  core::Result<std::string> DfbenchBinary() override;

  const SshEndpoint& endpoint() const { return options_.endpoint; }
  bool is_root() const { return uid_ == 0; }
  // `argv` run as root: unchanged for root, else through `sudo -n` (never prompts).
  std::vector<std::string> Privileged(std::vector<std::string> argv) const;
  // Runs a fixed POSIX sh script with positional arguments ($1...): the script is ours, the
  // arguments may hold anything. Not interruptible by SIGINT (cleanup paths use it too).
  core::Result<CommandOutput> RunScript(const std::string& script,
                                        const std::vector<std::string>& args,
                                        std::chrono::milliseconds timeout);
  // Stops daemons that any earlier dfbench process started in this setup's work directory and
  // left behind (e.g. one that was killed), then removes the work directory.
  core::Status RemoveWorkDir();

 private:
  explicit SshHost(SshHostOptions options) : options_(std::move(options)) {}

  using Interrupts = core::Interrupts;
  struct LocalRun {
    core::ExitStatus status;
    std::string out;
    std::string err;
  };
  // Runs a local program (ssh) to completion with its output in files under local_dir_.
  // stream_stderr: stderr is ours. stdin_path set: the program reads that file.
  core::Result<LocalRun> RunLocal(const std::vector<std::string>& argv,
                                  std::chrono::milliseconds timeout, Interrupts interrupts,
                                  bool stream_stderr = false, const std::string& stdin_path = "");
  // A remote command over ssh; exit 255 (ssh's own failure) becomes kEnvironment.
  core::Result<LocalRun> Remote(const std::vector<std::string>& remote_argv,
                                std::chrono::milliseconds timeout, Interrupts interrupts,
                                bool stream_stderr = false, const std::string& stdin_path = "");
  std::string Where() const;  // "server (root@10.0.0.2)"
  void KillRemoteCommand(const std::string& pid_file);
  void CloseMaster();

  SshHostOptions options_;
  std::string engine_address_;
  std::string home_;
  std::string work_dir_;
  int uid_ = -1;
  std::string uname_s_, uname_m_;
  std::atomic<uint64_t> sequence_{0};
  std::mutex mu_;                        // guards the members below
  std::map<int, DaemonHandle> daemons_;  // running daemons by pid
  std::optional<core::HostFacts> facts_;
  std::optional<std::string> dfbench_binary_;
  bool master_open_ = false;
  std::mutex forward_mu_;        // held while a forward opens or closes
  std::map<int, int> forwards_;  // engine port -> local port forwarded to it (forward_mu_)
};

}  // namespace dfbench::hosts
