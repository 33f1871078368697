#include "hosts/ssh_host.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <sstream>
#include <utility>

#include "core/files.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/text.h"
#include "core/version.h"
#include "hosts/dfbench_builds.h"
#include "hosts/digest.h"
#include "hosts/local_host.h"
#include "hosts/remote_facts.h"
#include "hosts/ssh_scripts.h"

namespace dfbench::hosts {
namespace {

// NAME=VALUE lines in a file that lives in memory only (memfd), open for as long as this lives:
// a secret for a remote command's stdin that never touches a disk.
class SecretInput {
 public:
  static core::Result<SecretInput> Of(const std::vector<std::pair<std::string, std::string>>& env) {
    SecretInput input;
    input.fd_ = memfd_create("dfbench-secret", MFD_CLOEXEC);
    if (input.fd_ < 0) {
      return core::Fail(core::ErrorKind::kEnvironment,
                        std::string("memfd_create: ") + std::strerror(errno));
    }
    std::string lines;
    for (const auto& [name, value] : env) lines += name + "=" + value + "\n";
    if (write(input.fd_, lines.data(), lines.size()) != static_cast<ssize_t>(lines.size())) {
      return core::Fail(core::ErrorKind::kEnvironment,
                        std::string("writing a secret input: ") + std::strerror(errno));
    }
    return input;
  }
  SecretInput() = default;
  SecretInput(SecretInput&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  SecretInput& operator=(SecretInput&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~SecretInput() {
    if (fd_ >= 0) close(fd_);
  }
  // A path this process opens afresh, reading from the start.
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_ = -1;
};

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr milliseconds kControlTimeout = seconds(30);

std::string CpuListArg(const std::vector<int>& cpus) {
  std::string s;
  for (int c : cpus) {
    if (!s.empty()) s += ',';
    s += std::to_string(c);
  }
  return s;
}

// `taskset -c LIST` in front of argv when pinned.
std::vector<std::string> Pinned(const std::vector<int>& cpus,
                                const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  if (!cpus.empty()) out = {"taskset", "-c", CpuListArg(cpus)};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

std::string Describe(milliseconds d) {
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + "s";
  return std::to_string(d.count()) + "ms";
}

// A private directory: created 0700 and owned by us (sockets and captured output live there).
core::Status MakePrivateDir(const std::filesystem::path& dir) {
  if (auto st = core::MakeDirs(dir); !st) return st;
  struct stat sb;
  if (lstat(dir.c_str(), &sb) != 0 || !S_ISDIR(sb.st_mode) || sb.st_uid != geteuid()) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      dir.string() + " is not a directory owned by this user");
  }
  if (chmod(dir.c_str(), 0700) != 0) {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot chmod 0700 " + dir.string());
  }
  return core::Ok();
}

// Unix socket paths are limited to 108 bytes, and ssh appends a 17-character suffix while it
// creates one: a socket under a deep setup directory moves to a short private directory.
core::Result<std::string> ControlPathFor(const std::filesystem::path& local_dir, core::Role role) {
  std::string path = (local_dir / ("cm-" + role.Name())).string();
  if (path.size() + 17 < 100) return path;
  const std::filesystem::path short_dir = "/tmp/dfbench-" + std::to_string(geteuid());
  if (auto st = MakePrivateDir(short_dir); !st) return tl::unexpected(st.error());
  std::ostringstream name;
  name << std::hex << std::hash<std::string>{}(path);
  return (short_dir / ("cm-" + name.str())).string();
}

}  // namespace

core::Result<std::unique_ptr<SshHost>> SshHost::Connect(SshHostOptions options) {
  if (auto st = ValidateEndpoint(options.endpoint); !st) return tl::unexpected(st.error());
  if (auto st = MakePrivateDir(options.local_dir); !st) return tl::unexpected(st.error());
  if (options.endpoint.control_path.empty()) {
    auto path = ControlPathFor(options.local_dir, options.role);
    if (!path) return tl::unexpected(path.error());
    options.endpoint.control_path = *path;
  }
  std::unique_ptr<SshHost> host(new SshHost(std::move(options)));
  const SshEndpoint& e = host->options_.endpoint;
  // A master left by an earlier dfbench that was killed is reused; a stale socket would make a
  // new master give up sharing and linger.
  auto alive = host->RunLocal(SshControlArgv(e, "check"), seconds(10), Interrupts::kObey);
  if (!alive || !alive->status.ok()) {
    std::error_code ec;
    std::filesystem::remove(e.control_path, ec);
  }
  const auto login_timeout =
      std::chrono::duration_cast<milliseconds>(e.connect_timeout + seconds(20));
  auto master = alive && alive->status.ok()
                    ? alive
                    : host->RunLocal(SshMasterArgv(e), login_timeout, Interrupts::kObey);
  if (!master) return tl::unexpected(core::WithContext(master.error(), host->Where()));
  if (!master->status.ok()) {
    std::string why = core::Trim(master->err);
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot log in to " + host->Where() + ": " +
                          (why.empty() ? "ssh " + master->status.Describe() : why));
  }
  host->master_open_ = true;

  auto hello = host->RunScript(kHelloScript, {host->options_.setup_id}, kControlTimeout);
  if (!hello) return tl::unexpected(hello.error());
  if (!hello->status.ok()) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        "cannot prepare a work directory on " + host->Where() + ": " + core::FirstLine(hello->err));
  }
  std::string ssh_connection;
  std::istringstream in(hello->out);
  std::string line;
  while (std::getline(in, line)) {
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "home") host->home_ = value;
    if (key == "uid") host->uid_ = std::atoi(value.c_str());
    if (key == "ssh_connection") ssh_connection = value;
    if (key == "uname_s") host->uname_s_ = value;
    if (key == "uname_m") host->uname_m_ = value;
    if (key == "work") host->work_dir_ = value;
  }
  if (host->work_dir_.empty()) {
    return core::Fail(core::ErrorKind::kEnvironment, "unexpected answer from " + host->Where() +
                                                         ": " + core::FirstLine(hello->out));
  }
  // "client_ip client_port server_ip server_port": the address the host was reached on.
  std::istringstream words(ssh_connection);
  std::string w[4];
  words >> w[0] >> w[1] >> w[2] >> w[3];
  host->engine_address_ = !host->options_.private_address.empty() ? host->options_.private_address
                          : !w[2].empty()                         ? w[2]
                                                                  : host->options_.endpoint.host;
  return host;
}

SshHost::~SshHost() {
  std::map<int, DaemonHandle> left;
  {
    std::lock_guard lock(mu_);
    left = daemons_;
  }
  for (auto& [pid, handle] : left) (void)StopDaemon(handle, seconds(2));
  CloseMaster();
}

std::string SshHost::Name() const {
  return Where();
}

std::string SshHost::Where() const {
  const auto& e = options_.endpoint;
  std::string where = options_.role.Name() + " (" + Destination(e);
  if (e.port != 22) where += std::string(":") += std::to_string(e.port);
  where += ')';
  return where;
}

void SshHost::CloseMaster() {
  if (!master_open_) return;
  master_open_ = false;
  // `-O exit` only asks: the master (ours or a leftover's) exits on its own time, so wait for its
  // pid to go, and end it if it has not within the deadline; nothing outlives the host.
  auto check =
      RunLocal(SshControlArgv(options_.endpoint, "check"), seconds(10), Interrupts::kIgnore);
  const int pid = check && check->status.ok() ? MasterPidFromCheck(check->err) : 0;
  (void)RunLocal(SshControlArgv(options_.endpoint, "exit"), seconds(10), Interrupts::kIgnore);
  if (pid <= 0) return;
  core::Clock& clock = *options_.clock;
  const auto deadline = clock.Now() + seconds(5);
  while (!core::ProcessGone(pid) && clock.Now() < deadline) clock.SleepFor(milliseconds(20));
  if (!core::ProcessGone(pid)) {
    core::Notef("{}: its ssh master (pid {}) did not exit within 5 s of being asked; ending it",
                Where(), pid);
    (void)kill(pid, SIGKILL);
  }
}

core::Result<SshHost::LocalRun> SshHost::RunLocal(const std::vector<std::string>& argv,
                                                  milliseconds timeout, Interrupts interrupts,
                                                  bool stream_stderr,
                                                  const std::string& stdin_path) {
  // The hosts of a setup share its local directory: the role keeps their files apart when
  // several run commands at once (several client hosts).
  const std::string base =
      (options_.local_dir / ("io-" + options_.role.Name() + "-" + std::to_string(getpid()) + "-" +
                             std::to_string(sequence_++)))
          .string();
  const std::string out_path = base + ".out";
  const std::string err_path = stream_stderr ? "" : base + ".err";
  auto cleanup = [&] {
    std::error_code ec;
    std::filesystem::remove(out_path, ec);
    if (!err_path.empty()) std::filesystem::remove(err_path, ec);
  };
  // Without stdin_path ssh's stdin is /dev/null: remote programs never wait for input.
  auto proc = core::Spawn(
      {.argv = argv, .stdout_path = out_path, .stderr_path = err_path, .stdin_path = stdin_path});
  if (!proc) {
    cleanup();
    return core::Fail(core::ErrorKind::kEnvironment,
                      proc.error().message + " (dfbench needs the OpenSSH client, ssh)");
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  LocalRun result;
  while (true) {
    if (auto status = proc->WaitFor(milliseconds(50))) {
      result.status = *status;
      break;
    }
    if (interrupts == Interrupts::kObey && core::InterruptRequested()) {
      proc->Terminate(milliseconds(200));
      cleanup();
      return core::Fail(core::ErrorKind::kInterrupted, "interrupted");
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      proc->Terminate(milliseconds(200));
      cleanup();
      return core::Fail(core::ErrorKind::kFailure, "timed out after " + Describe(timeout));
    }
  }
  result.out = core::ReadFile(out_path).value_or("");
  if (!err_path.empty()) result.err = core::ReadFile(err_path).value_or("");
  cleanup();
  return result;
}

core::Result<SshHost::LocalRun> SshHost::Remote(const std::vector<std::string>& remote_argv,
                                                milliseconds timeout, Interrupts interrupts,
                                                bool stream_stderr, const std::string& stdin_path) {
  auto r = RunLocal(SshCommandArgv(options_.endpoint, remote_argv), timeout, interrupts,
                    stream_stderr, stdin_path);
  if (!r) return r;
  if (r->status.code == 255) {
    std::string why = core::FirstLine(r->err);
    return core::Fail(core::ErrorKind::kEnvironment,
                      "lost the SSH connection to " + Where() + (why.empty() ? "" : ": " + why));
  }
  return r;
}

core::Result<CommandOutput> SshHost::RunScript(const std::string& script,
                                               const std::vector<std::string>& args,
                                               milliseconds timeout) {
  std::vector<std::string> argv = {"sh", "-c", script, "sh"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = Remote(argv, timeout, Interrupts::kIgnore);
  if (!r) return tl::unexpected(r.error());
  return CommandOutput{r->status, std::move(r->out), std::move(r->err)};
}

core::Result<CommandOutput> SshHost::Run(const CommandSpec& spec) {
  if (spec.argv.empty()) return core::Fail(core::ErrorKind::kUsage, "empty command");
  const std::string pid_file = work_dir_ + "/run/cmd-" + std::to_string(getpid()) + "-" +
                               std::to_string(sequence_++) + ".pid";
  std::vector<std::string> argv = {"sh", "-c", kRunWrapper, "sh", pid_file};
  auto command = Pinned(spec.cpus, spec.argv);
  std::string stdin_path = spec.stdin_path;
  SecretInput secret;
  if (!spec.env.empty()) {
    // sshd drops an environment the client sends unless AcceptEnv lists it, and a secret on
    // the remote command line could be read there: it travels on the command's stdin, from a
    // file that lives in memory only, and a shell exports it before the command starts.
    if (!stdin_path.empty()) {
      return core::Fail(core::ErrorKind::kUsage,
                        Name() + ": a command gets either an input file or a secret environment");
    }
    auto input = SecretInput::Of(spec.env);
    if (!input) return tl::unexpected(input.error());
    secret = std::move(*input);
    stdin_path = secret.path();
    argv.insert(argv.end(), {"sh", "-c", kEnvFromStdin, "sh"});
  }
  argv.insert(argv.end(), command.begin(), command.end());
  auto r = Remote(argv, spec.timeout, spec.interrupts, spec.stream_stderr, stdin_path);
  if (!r) {
    // Cut short here (or the connection carrying it dropped): the program must not go on
    // running on the host.
    KillRemoteCommand(pid_file);
    if (r.error().kind == core::ErrorKind::kFailure) {
      return core::Fail(core::ErrorKind::kFailure,
                        spec.argv[0] + " on " + Where() + " " + r.error().message);
    }
    return tl::unexpected(r.error());
  }
  if (r->status.code == 127 && r->err.find(kNotFoundMarker) != std::string::npos) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot start " + command[0] + " on " + Where() + ": not found");
  }
  return CommandOutput{r->status, std::move(r->out), std::move(r->err)};
}

void SshHost::KillRemoteCommand(const std::string& pid_file) {
  (void)RunScript(std::string(kStartOfFunction) + kKillCommandScript, {pid_file}, kControlTimeout);
}

core::Result<DaemonHandle> SshHost::StartDaemon(const DaemonSpec& spec) {
  if (spec.argv.empty()) return core::Fail(core::ErrorKind::kUsage, "empty daemon command");
  std::vector<std::string> args = {spec.log_path, spec.working_dir, work_dir_ + "/daemons"};
  auto command = Pinned(spec.cpus, spec.argv);
  args.insert(args.end(), command.begin(), command.end());
  // Not interruptible: once started, the daemon must be known so that it can be stopped.
  auto r = RunScript(std::string(kStartOfFunction) + kStartDaemonScript, args, kControlTimeout);
  if (!r) return tl::unexpected(r.error());
  if (r->status.code == 127) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot start " + command[0] + " on " + Where() + ": not found");
  }
  std::istringstream in(r->out);
  DaemonHandle handle{.log_path = spec.log_path, .description = spec.argv[0]};
  std::string start;
  if (!r->status.ok() || !(in >> handle.pid >> start) || handle.pid <= 0) {
    return core::Fail(core::ErrorKind::kEnvironment,
                      "cannot start " + spec.argv[0] + " on " + Where() + ": " +
                          core::FirstLine(r->err.empty() ? r->out : r->err));
  }
  handle.description = spec.argv[0] + "#" + start;  // the start time tells a reused pid apart
  std::lock_guard lock(mu_);
  daemons_[handle.pid] = handle;
  return handle;
}

bool SshHost::DaemonAlive(DaemonHandle& handle) {
  std::string description;
  {
    std::lock_guard lock(mu_);
    auto it = daemons_.find(handle.pid);
    if (handle.pid <= 0 || it == daemons_.end()) return false;
    description = it->second.description;
  }
  const std::string start = description.substr(description.rfind('#') + 1);
  auto r = RunScript(std::string(kStartOfFunction) + kAliveScript,
                     {std::to_string(handle.pid), start}, kControlTimeout);
  // Unreachable is not "exited": the engine's own health check says what is wrong.
  if (!r) return true;
  return r->status.ok();
}

core::Status SshHost::StopDaemon(DaemonHandle& handle, milliseconds grace) {
  std::string description;
  {
    std::lock_guard lock(mu_);
    auto it = daemons_.find(handle.pid);
    if (handle.pid <= 0 || it == daemons_.end()) return core::Ok();  // already stopped
    description = it->second.description;
  }
  const std::string start = description.substr(description.rfind('#') + 1);
  const std::string tenths = std::to_string(std::max<int64_t>(1, grace.count() / 100));
  auto r = RunScript(std::string(kStartOfFunction) + kStopDaemonScript,
                     {std::to_string(handle.pid), start, tenths, work_dir_ + "/daemons"},
                     grace + kControlTimeout);
  if (!r)
    return core::Fail(r.error().kind,
                      "cannot stop " + handle.description + ": " + r.error().message);
  {
    std::lock_guard lock(mu_);
    daemons_.erase(handle.pid);
  }
  handle.pid = -1;  // a later pid reuse must not be mistaken for this daemon
  if (!r->status.ok()) {
    return core::Fail(core::ErrorKind::kFailure, "a process of " + Where() + " survived SIGKILL");
  }
  return core::Ok();
}

core::Result<core::HostFacts> SshHost::Facts(core::Role role) {
  {
    std::lock_guard lock(mu_);
    if (facts_) {
      core::HostFacts f = *facts_;
      f.role = role;
      return f;
    }
  }
  auto r = RunScript(FactsScript(), {}, kControlTimeout);
  if (!r) return tl::unexpected(r.error());
  core::HostFacts f = ParseFacts(r->out, engine_address_);
  f.address = options_.endpoint.host;
  f.private_address = engine_address_;
  std::lock_guard lock(mu_);
  facts_ = f;
  f.role = role;
  return f;
}

core::Result<TcpEndpoint> SshHost::ControlEndpoint(int port) {
  std::lock_guard lock(forward_mu_);
  if (auto it = forwards_.find(port); it != forwards_.end()) {
    return TcpEndpoint{"127.0.0.1", it->second};
  }
  std::string why;
  // The free port may be taken between the look and ssh's bind: try another.
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto local = FreeLocalPort("127.0.0.1");
    if (!local) return tl::unexpected(local.error());
    auto r = RunLocal(SshForwardArgv(options_.endpoint, "forward", *local, engine_address_, port),
                      kControlTimeout, Interrupts::kIgnore);
    if (!r) return tl::unexpected(core::WithContext(r.error(), Where()));
    if (r->status.ok()) {
      forwards_[port] = *local;
      return TcpEndpoint{"127.0.0.1", *local};
    }
    why = core::FirstLine(r->err);
  }
  return core::Fail(core::ErrorKind::kEnvironment,
                    "cannot forward a local port to " + engine_address_ + ":" +
                        std::to_string(port) + " over the SSH connection to " + Where() +
                        (why.empty() ? "" : ": " + why));
}

void SshHost::ReleaseControlEndpoint(int port) {
  std::lock_guard lock(forward_mu_);
  auto it = forwards_.find(port);
  if (it == forwards_.end()) return;
  (void)RunLocal(SshForwardArgv(options_.endpoint, "cancel", it->second, engine_address_, port),
                 kControlTimeout, Interrupts::kIgnore);
  forwards_.erase(it);
}

core::Result<int> SshHost::FreePort() {
  auto r = RunScript("cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; exit 0", {}, kControlTimeout);
  if (!r) return tl::unexpected(r.error());
  // Below the usual ephemeral range (32768-60999), so outgoing connections do not take it.
  int port = PickFreePort(PortsInUse(r->out), 20000, 32000, std::random_device{}());
  if (port == 0) {
    return core::Fail(core::ErrorKind::kEnvironment, "no free TCP port on " + Where());
  }
  return port;
}

std::optional<std::string> SshHost::Which(const std::string& program) {
  auto r = RunScript(kWhichScript, {program}, kControlTimeout);
  if (!r || !r->status.ok()) return std::nullopt;
  std::string path = core::FirstLine(r->out);
  if (path.empty()) return std::nullopt;
  return path;
}

std::vector<std::string> SshHost::Privileged(std::vector<std::string> argv) const {
  return PrivilegedArgv(uid_ == 0, std::move(argv));
}

core::Result<std::string> SshHost::DfbenchBinary() {
  {
    std::lock_guard lock(mu_);
    if (dfbench_binary_) return *dfbench_binary_;
  }
  if (uname_s_ != "Linux") {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot run dfbench on " + Where() +
                                                         ": it is " + uname_s_ + " " + uname_m_ +
                                                         ", the load generator needs Linux");
  }
  auto local = DfbenchBinaryForArch(uname_m_);
  if (!local) {
    return tl::unexpected(core::WithContext(local.error(), "cannot run dfbench on " + Where()));
  }
  auto digest = Sha256File(*local);
  if (!digest) return tl::unexpected(digest.error());
  const std::string remote = work_dir_ + "/bin/dfbench-" + digest->substr(0, 16);
  auto present = RunScript("[ -x \"$1\" ]", {remote}, kControlTimeout);
  if (!present) return tl::unexpected(present.error());
  if (!present->status.ok()) {
    auto st = Upload(*local, remote, 0755);
    if (!st && st.error().kind == core::ErrorKind::kEnvironment) {
      // Tens of megabytes over a busy link: a dropped connection is worth one more try (the
      // upload lands under a temporary name, so a cut one leaves nothing half-written).
      core::Notef("{}; trying once more", st.error().message);
      st = Upload(*local, remote, 0755);
    }
    if (!st) return tl::unexpected(st.error());
  }
  auto smoke = Remote({remote, "version"}, kControlTimeout, Interrupts::kObey);
  if (!smoke) return tl::unexpected(smoke.error());
  if (!smoke->status.ok()) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        "the dfbench binary does not run on " + Where() + ": " +
            core::FirstLine(smoke->err.empty() ? smoke->status.Describe() : smoke->err));
  }
  // The client build is made apart from this dfbench: one from another commit may read flags or
  // write reports differently, which is worth a word but not a refusal.
  const std::string commit = std::string("(commit ") + core::GetBuildInfo().commit + ",";
  if (*local != core::SelfExecutable() && smoke->out.find(commit) == std::string::npos) {
    core::Notef("{}: {} is {}, this dfbench is {}: rebuild it (scripts/build-arm64.sh)", Where(),
                *local, core::FirstLine(smoke->out), core::VersionLine());
  }
  std::lock_guard lock(mu_);
  dfbench_binary_ = remote;
  return remote;
}

core::Status SshHost::RemoveWorkDir() {
  auto r = RunScript(std::string(kStartOfFunction) + kStopLeftoversFunction + kRemoveWorkDirScript,
                     {work_dir_}, std::chrono::minutes(2));
  if (!r) return tl::unexpected(r.error());
  if (!r->status.ok()) {
    return core::Fail(core::ErrorKind::kEnvironment, "cannot remove " + work_dir_ + " on " +
                                                         Where() + ": " + core::FirstLine(r->err));
  }
  std::lock_guard lock(mu_);
  daemons_.clear();
  return core::Ok();
}

}  // namespace dfbench::hosts
