#include "hosts/local_host.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/files.h"
#include "hosts/leftovers.h"
#include "hosts/remote_facts.h"

namespace dfbench::hosts {
namespace {

std::string CpuModel() {
  if (auto cpuinfo = core::ReadFile("/proc/cpuinfo")) {
    std::string v = CpuModelOf(*cpuinfo);
    if (!v.empty()) return v;
  }
  if (auto lscpu = core::RunCapture({"lscpu"}, std::chrono::seconds(5));
      lscpu && lscpu->status.ok()) {
    std::string v = FieldOf(lscpu->out, "Model name", ':');
    if (!v.empty()) return v;
  }
  return "unknown";
}

uint64_t MemoryBytes() {
  auto meminfo = core::ReadFile("/proc/meminfo");
  return meminfo ? MemTotalBytes(*meminfo) : 0;
}

std::string OsName() {
  auto release = core::ReadFile("/etc/os-release");
  return release ? OsReleaseField(*release, "PRETTY_NAME") : "";
}

}  // namespace

std::vector<int> AllowedCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
  }
  if (cpus.empty()) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    for (long c = 0; c < std::max(n, 1L); ++c) cpus.push_back(static_cast<int>(c));
  }
  return cpus;
}

LocalHost::LocalHost(std::filesystem::path work_dir) : work_dir_(std::move(work_dir)) {}

LocalHost::~LocalHost() {
  std::lock_guard lock(mu_);
  for (auto& [pid, proc] : daemons_) {
    proc.Terminate(std::chrono::milliseconds(500));
    ForgetDaemon(pid);
  }
}

void LocalHost::ForgetDaemon(int pid) {
  std::error_code ec;
  std::filesystem::remove(work_dir_ / "daemons" / std::to_string(pid), ec);
}

core::Result<CommandOutput> LocalHost::Run(const CommandSpec& spec) {
  core::RunOptions options{.timeout = spec.timeout,
                           .interrupts = spec.interrupts,
                           .stdin_path = spec.stdin_path,
                           .cpus = spec.cpus,
                           .extra_env = spec.env,
                           .stderr_mode = spec.stream_stderr ? core::RunOptions::Stderr::kInherit
                                                             : core::RunOptions::Stderr::kCapture};
  auto captured = core::RunCapture(spec.argv, options);
  if (!captured) return tl::unexpected(captured.error());
  return CommandOutput{captured->status, std::move(captured->out), std::move(captured->err)};
}

core::Result<DaemonHandle> LocalHost::StartDaemon(const DaemonSpec& spec) {
  if (spec.argv.empty()) return core::Fail(core::ErrorKind::kUsage, "empty daemon command");
  if (!spec.log_path.empty()) {
    auto parent = std::filesystem::path(spec.log_path).parent_path();
    if (!parent.empty()) {
      if (auto made = core::MakeDirs(parent); !made) return tl::unexpected(made.error());
    }
  }
  auto proc = core::Spawn({.argv = spec.argv,
                           .stdout_path = spec.log_path,
                           .stderr_path = spec.log_path,
                           .cpus = spec.cpus,
                           .new_process_group = true,
                           .die_with_parent = true,
                           .working_dir = spec.working_dir});
  if (!proc) return tl::unexpected(proc.error());
  DaemonHandle handle{.pid = proc->pid(), .log_path = spec.log_path, .description = spec.argv[0]};
  // Its process group outlives a killed dfbench when it forked (a snapshot child): the record
  // lets the next command stop it (hosts/leftovers.h).
  if (auto record = LocalDaemonRecord(handle.pid)) {
    if (auto st = core::WriteFileAtomic(work_dir_ / "daemons" / std::to_string(handle.pid),
                                        *record + "\n");
        !st) {
      return tl::unexpected(st.error());  // `proc` goes, and kills the daemon with it
    }
  }
  std::lock_guard lock(mu_);
  daemons_[handle.pid] = std::move(*proc);
  return handle;
}

bool LocalHost::DaemonAlive(DaemonHandle& handle) {
  std::lock_guard lock(mu_);
  auto it = daemons_.find(handle.pid);
  if (handle.pid <= 0 || it == daemons_.end()) return false;
  // Poll reaps an exited child, so a zombie counts as gone.
  if (auto status = it->second.Poll()) {
    handle.exit_status = *status;
    return false;
  }
  return true;
}

core::Status LocalHost::StopDaemon(DaemonHandle& handle, std::chrono::milliseconds grace) {
  core::Process proc;
  {
    std::lock_guard lock(mu_);
    auto it = daemons_.find(handle.pid);
    if (handle.pid <= 0 || it == daemons_.end()) return core::Ok();  // already stopped
    proc = std::move(it->second);
    daemons_.erase(it);
  }
  // Outside the lock: the grace period may take a while.
  handle.exit_status = proc.Terminate(grace);
  ForgetDaemon(handle.pid);
  handle.pid = -1;  // a later pid reuse must not be mistaken for this daemon
  return core::Ok();
}

core::Result<std::string> LocalHost::WorkDir() {
  if (auto made = core::MakeDirs(work_dir_); !made) return tl::unexpected(made.error());
  return work_dir_.string();
}

core::Result<core::HostFacts> LocalHost::Facts(core::Role role) {
  core::HostFacts facts;
  facts.role = role;
  struct utsname u;
  if (uname(&u) == 0) {
    facts.name = u.nodename;
    facts.kernel = u.release;
    facts.arch = u.machine;
  }
  facts.address = "localhost";
  facts.private_address = EngineAddress();
  facts.cpu_model = CpuModel();
  facts.vcpus = static_cast<int>(AllowedCpus().size());
  facts.memory_bytes = MemoryBytes();
  facts.os = OsName();
  return facts;
}

core::Result<int> FreeLocalPort(const std::string& address) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      std::string("socket: ") + std::strerror(errno));
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = 0;  // the kernel picks a free one
  inet_pton(AF_INET, address.c_str(), &addr.sin_addr);
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    int e = errno;
    close(fd);
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot find a free port on " + address + ": " + std::strerror(e));
  }
  close(fd);
  return static_cast<int>(ntohs(addr.sin_port));
}

core::Result<int> LocalHost::FreePort() {
  return FreeLocalPort(EngineAddress());
}

std::optional<std::string> LocalHost::Which(const std::string& program) {
  return core::FindOnPath(program);
}

core::Result<std::string> LocalHost::DfbenchBinary() {
  return core::SelfExecutable();
}

}  // namespace dfbench::hosts
