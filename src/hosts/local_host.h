// The machine dfbench runs on.
#pragma once

#include <map>
#include <mutex>
#include <vector>

#include "hosts/host.h"

namespace dfbench::hosts {

// A TCP port free on `address` of this machine right now (the kernel's choice).
core::Result<int> FreeLocalPort(const std::string& address);

// Thread-safe: a LocalHost is shared by the server and client roles of a local fleet.
// A daemon dies with the thread that started it (the parent-death signal is per thread), so
// start daemons from a thread that outlives them.
class LocalHost : public Host {
 public:
  // `work_dir`: where logs and reports go (created on first use), and the records of the daemons
  // it runs (hosts/leftovers.h).
  explicit LocalHost(std::filesystem::path work_dir);
  // Terminates the daemons that were started here and not stopped.
  ~LocalHost() override;

  std::string Name() const override { return "local"; }
  std::string EngineAddress() const override { return "127.0.0.1"; }
  core::Result<CommandOutput> Run(const CommandSpec& spec) override;
  core::Result<DaemonHandle> StartDaemon(const DaemonSpec& spec) override;
  bool DaemonAlive(DaemonHandle& handle) override;
  core::Status StopDaemon(DaemonHandle& handle, std::chrono::milliseconds grace) override;
  core::Result<std::string> WorkDir() override;
  core::Result<core::HostFacts> Facts(core::Role role) override;
  core::Result<int> FreePort() override;
  std::optional<std::string> Which(const std::string& program) override;
  core::Result<std::string> DfbenchBinary() override;

 private:
  void ForgetDaemon(int pid);  // drops its record under work_dir_/daemons
  std::filesystem::path work_dir_;
  std::mutex mu_;                         // guards daemons_
  std::map<int, core::Process> daemons_;  // by pid; destroying the host kills leftovers
};

// The CPUs this process may run on (its affinity mask), ascending.
std::vector<int> AllowedCpus();

}  // namespace dfbench::hosts
