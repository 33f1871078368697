#include "core/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <sstream>
#include <thread>

#include "core/files.h"
#include "core/interrupt.h"

extern char** environ;

namespace dfbench::core {
namespace {

ExitStatus Decode(int wstatus) {
  ExitStatus s;
  if (WIFEXITED(wstatus)) s.code = WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) s.signal = WTERMSIG(wstatus);
  return s;
}

bool IsExecutable(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

int OpenOutput(const std::string& path, bool append) {
  return open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
}

// A child's stdin read from `path`; -1 (no file: /dev/null or a pipe) when `path` is empty.
Result<int> OpenInput(const std::string& path) {
  if (path.empty()) return -1;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Fail(ErrorKind::kEnvironment, "cannot open " + path + ": " + std::strerror(errno));
  }
  return fd;
}

// Everything the child does between fork() and exec, prepared before fork() so that the
// child only makes syscalls.
struct ChildSetup {
  std::string name;  // for messages: argv[0] as given
  std::vector<std::string> argv_storage;
  std::vector<char*> argv;
  std::vector<std::string> env_storage;
  std::vector<char*> envp;
  cpu_set_t cpus;
  bool pin = false;
  bool new_process_group = true;
  bool die_with_parent = true;
  std::string working_dir;  // empty: inherit
  int stdin_fd = -1;        // -1: /dev/null
  int stdout_fd = -1;       // -1: inherit
  int stderr_fd = -1;       // -1: inherit
};

// The program (argv[0] looked up on PATH when it has no '/'), its environment (ours plus
// `extra_env`) and CPU set. kEnvironment when the program is not there.
Result<ChildSetup> PrepareChild(const std::vector<std::string>& argv, const std::vector<int>& cpus,
                                const std::vector<std::pair<std::string, std::string>>& extra_env) {
  if (argv.empty()) return Fail(ErrorKind::kUsage, "empty command");
  ChildSetup child;
  child.name = argv[0];
  child.argv_storage = argv;
  if (argv[0].find('/') == std::string::npos) {
    auto found = FindOnPath(argv[0]);
    if (!found) return Fail(ErrorKind::kEnvironment, argv[0] + ": not found on PATH");
    child.argv_storage[0] = *found;
  } else if (!IsExecutable(argv[0])) {
    return Fail(ErrorKind::kEnvironment, argv[0] + ": not an executable file");
  }
  for (char** e = environ; *e; ++e) child.env_storage.emplace_back(*e);
  for (const auto& [k, v] : extra_env) child.env_storage.push_back(k + "=" + v);
  CPU_ZERO(&child.cpus);
  for (int c : cpus) {
    if (c >= 0 && c < CPU_SETSIZE) {
      CPU_SET(c, &child.cpus);
      child.pin = true;
    }
  }
  return child;
}

// In the child: never returns. A failure before or at exec is written (errno) to `report`.
[[noreturn]] void BecomeChild(ChildSetup& child, pid_t parent, int report) {
  if (child.new_process_group) setpgid(0, 0);
  if (child.die_with_parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // The parent may have died before prctl took effect: then nobody would kill us.
    if (getppid() != parent) _exit(127);
  }
  signal(SIGPIPE, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  const int in = child.stdin_fd >= 0 ? child.stdin_fd : open("/dev/null", O_RDONLY);
  if (in >= 0) dup2(in, 0);
  if (child.stdout_fd >= 0) dup2(child.stdout_fd, 1);
  if (child.stderr_fd >= 0) dup2(child.stderr_fd, 2);
  if (child.pin) sched_setaffinity(0, sizeof(child.cpus), &child.cpus);
  if (child.working_dir.empty() || chdir(child.working_dir.c_str()) == 0) {
    execve(child.argv[0], child.argv.data(), child.envp.data());
  }
  const int e = errno;
  (void)!write(report, &e, sizeof(e));
  _exit(127);
}

// Forks a child that runs `child` (its fds are the caller's to close afterwards). Returns once
// the program runs; kEnvironment "cannot start <name>: <reason>" when exec (or chdir) failed,
// reported through a CLOEXEC pipe that a successful exec closes.
Result<Process> ForkExec(ChildSetup& child) {
  for (auto& a : child.argv_storage) child.argv.push_back(a.data());
  child.argv.push_back(nullptr);
  for (auto& e : child.env_storage) child.envp.push_back(e.data());
  child.envp.push_back(nullptr);
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    return Fail(ErrorKind::kEnvironment, std::string("pipe: ") + std::strerror(errno));
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(report[0]);
    close(report[1]);
    return Fail(ErrorKind::kEnvironment, std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(report[0]);
    BecomeChild(child, parent, report[1]);
  }
  close(report[1]);
  if (child.new_process_group) setpgid(pid, pid);  // no race with the child's own call
  int child_errno = 0;
  ssize_t n;
  do {
    n = read(report[0], &child_errno, sizeof(child_errno));
  } while (n < 0 && errno == EINTR);
  close(report[0]);
  Process proc(pid, child.new_process_group);
  if (n == sizeof(child_errno)) {
    proc.Wait();
    return Fail(ErrorKind::kEnvironment,
                "cannot start " + child.name + ": " + std::strerror(child_errno));
  }
  return proc;
}

}  // namespace

std::string ExitStatus::Describe() const {
  if (signal != 0) return "killed by signal " + std::to_string(signal);
  return "exit code " + std::to_string(code);
}

Process::Process(Process&& other) noexcept
    : pid_(other.pid_), own_group_(other.own_group_), status_(other.status_) {
  other.pid_ = -1;
}

Process& Process::operator=(Process&& other) noexcept {
  if (this != &other) {
    if (running()) Terminate(std::chrono::milliseconds(0));
    pid_ = other.pid_;
    own_group_ = other.own_group_;
    status_ = other.status_;
    other.pid_ = -1;
  }
  return *this;
}

Process::~Process() {
  if (running()) Terminate(std::chrono::milliseconds(0));
}

std::optional<ExitStatus> Process::Poll() {
  if (status_ || pid_ <= 0) return status_;
  int wstatus = 0;
  pid_t r = waitpid(pid_, &wstatus, WNOHANG);
  if (r == pid_) status_ = Decode(wstatus);
  if (r < 0 && errno == ECHILD) status_ = ExitStatus{0, 0};
  return status_;
}

ExitStatus Process::Wait() {
  if (status_ || pid_ <= 0) return status_.value_or(ExitStatus{});
  int wstatus = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &wstatus, 0);
  } while (r < 0 && errno == EINTR);
  status_ = r == pid_ ? Decode(wstatus) : ExitStatus{0, 0};
  return *status_;
}

std::optional<ExitStatus> Process::WaitFor(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (auto s = Poll()) return s;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void Process::Signal(int sig) {
  if (!running()) return;
  if (own_group_) {
    kill(-pid_, sig);
  } else {
    kill(pid_, sig);
  }
}

ExitStatus Process::Terminate(std::chrono::milliseconds grace) {
  if (!running()) return status_.value_or(ExitStatus{});
  if (grace.count() > 0) {
    Signal(SIGTERM);
    if (auto s = WaitFor(grace)) return *s;
  }
  Signal(SIGKILL);
  return Wait();
}

Result<Process> Spawn(const SpawnOptions& options) {
  auto child = PrepareChild(options.argv, options.cpus, options.extra_env);
  if (!child) return tl::unexpected(child.error());
  child->new_process_group = options.new_process_group;
  child->die_with_parent = options.die_with_parent;
  child->working_dir = options.working_dir;
  int out_fd = -1, err_fd = -1;
  if (!options.stdout_path.empty()) {
    out_fd = OpenOutput(options.stdout_path, options.append);
    if (out_fd < 0) {
      return Fail(ErrorKind::kEnvironment,
                  "cannot open " + options.stdout_path + ": " + std::strerror(errno));
    }
  }
  if (!options.stderr_path.empty()) {
    if (options.stderr_path == options.stdout_path) {
      err_fd = out_fd;
    } else {
      err_fd = OpenOutput(options.stderr_path, options.append);
      if (err_fd < 0) {
        if (out_fd >= 0) close(out_fd);
        return Fail(ErrorKind::kEnvironment,
                    "cannot open " + options.stderr_path + ": " + std::strerror(errno));
      }
    }
  }
  auto in_fd = OpenInput(options.stdin_path);
  if (!in_fd) {
    if (out_fd >= 0) close(out_fd);
    if (err_fd >= 0 && err_fd != out_fd) close(err_fd);
    return tl::unexpected(in_fd.error());
  }
  child->stdin_fd = *in_fd;
  child->stdout_fd = out_fd;
  child->stderr_fd = err_fd;
  auto proc = ForkExec(*child);
  if (*in_fd >= 0) close(*in_fd);
  if (out_fd >= 0) close(out_fd);
  if (err_fd >= 0 && err_fd != out_fd) close(err_fd);
  return proc;
}

namespace {

std::string DescribeTimeout(std::chrono::milliseconds timeout) {
  if (timeout.count() % 1000 == 0) return std::to_string(timeout.count() / 1000) + "s";
  return std::to_string(timeout.count()) + "ms";
}

}  // namespace

namespace {

// A child started by RunCapture: its stdout (and stderr, when captured) still to be read.
struct CapturingChild {
  Process proc;
  int out_fd = -1;
  int err_fd = -1;  // -1: stderr goes where ours goes
};

// Starts `argv` with its stdout (and stderr when captured) on pipes and its stdin from
// options.stdin_path or options.stdin_data (then closed).
Result<CapturingChild> StartCapturing(const std::vector<std::string>& argv,
                                      const RunOptions& options) {
  auto child = PrepareChild(argv, options.cpus, options.extra_env);
  if (!child) return tl::unexpected(child.error());
  const bool capture_err = options.stderr_mode == RunOptions::Stderr::kCapture;
  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, in_pipe[2] = {-1, -1};
  auto close_pipes = [&] {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], in_pipe[0], in_pipe[1]}) {
      if (fd >= 0) close(fd);
    }
  };
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || (capture_err && pipe2(err_pipe, O_CLOEXEC) != 0) ||
      pipe2(in_pipe, O_CLOEXEC) != 0) {
    close_pipes();
    return Fail(ErrorKind::kEnvironment, std::string("pipe: ") + std::strerror(errno));
  }
  auto in_file = OpenInput(options.stdin_path);
  if (!in_file) {
    close_pipes();
    return tl::unexpected(in_file.error());
  }
  child->stdin_fd = *in_file >= 0 ? *in_file : in_pipe[0];
  child->stdout_fd = out_pipe[1];
  child->stderr_fd = err_pipe[1];
  auto started = ForkExec(*child);
  if (*in_file >= 0) close(*in_file);
  if (!started) {
    close_pipes();
    return tl::unexpected(started.error());
  }
  close(out_pipe[1]);
  if (capture_err) close(err_pipe[1]);
  close(in_pipe[0]);
  if (!options.stdin_data.empty() && *in_file < 0) {
    // Small inputs only (configuration snippets); larger ones would need the poll loop.
    (void)!write(in_pipe[1], options.stdin_data.data(), options.stdin_data.size());
  }
  close(in_pipe[1]);
  return CapturingChild{std::move(*started), out_pipe[0], err_pipe[0]};
}

// An error when the wait must end now (an interrupt it obeys, or its deadline), the child
// stopped; Ok to go on waiting.
Status StopIfDue(Process& proc, const RunOptions& options,
                 std::chrono::steady_clock::time_point deadline, const std::string& program) {
  if (options.interrupts == Interrupts::kObey && InterruptRequested()) {
    proc.Terminate(std::chrono::milliseconds(500));
    return Fail(ErrorKind::kInterrupted, "interrupted");
  }
  if (std::chrono::steady_clock::now() >= deadline) {
    proc.Terminate(std::chrono::milliseconds(500));
    return Fail(ErrorKind::kFailure,
                program + " timed out after " + DescribeTimeout(options.timeout));
  }
  return Ok();
}

// Reads the child's pipes into `result` until both close (or the wait must end); closes them.
Status ReadUntilClosed(CapturingChild& c, const RunOptions& options,
                       std::chrono::steady_clock::time_point deadline, const std::string& program,
                       CapturedOutput* result) {
  pollfd fds[2] = {{c.out_fd, POLLIN, 0}, {c.err_fd, POLLIN, 0}};
  int open_fds = c.err_fd >= 0 ? 2 : 1;
  auto close_all = [&] {
    for (auto& f : fds) {
      if (f.fd >= 0) close(f.fd);
      f.fd = -1;
    }
  };
  char buf[65536];
  while (open_fds > 0) {
    if (auto st = StopIfDue(c.proc, options, deadline, program); !st) {
      close_all();
      return st;
    }
    int r = poll(fds, 2, 100);  // a negative fd is ignored by poll
    if (r < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof(buf));
      if (n > 0) {
        (i == 0 ? result->out : result->err).append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  close_all();
  return Ok();
}

}  // namespace

Result<CapturedOutput> RunCapture(const std::vector<std::string>& argv, const RunOptions& options) {
  auto child = StartCapturing(argv, options);
  if (!child) return tl::unexpected(child.error());
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  CapturedOutput result;
  if (auto st = ReadUntilClosed(*child, options, deadline, argv[0], &result); !st) {
    return tl::unexpected(st.error());
  }
  // The pipes closed but the child may still run (it closed its stdout, or a grandchild
  // holds no pipe); keep honouring the deadline and interrupts while it finishes.
  while (true) {
    if (auto s = child->proc.WaitFor(std::chrono::milliseconds(50))) {
      result.status = *s;
      return result;
    }
    if (auto st = StopIfDue(child->proc, options, deadline, argv[0]); !st) {
      return tl::unexpected(st.error());
    }
  }
}

std::optional<std::string> FindOnPath(const std::string& program) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    if (IsExecutable(program)) return program;
    return std::nullopt;
  }
  const char* path = getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  // Engines often live in sbin, which a non-root PATH may lack.
  dirs += ":/usr/local/sbin:/usr/sbin:/sbin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    if (!dir.empty()) {
      std::string candidate = dir + "/" + program;
      if (IsExecutable(candidate)) return candidate;
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> ProcStatFields(pid_t pid) {
  auto stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return std::nullopt;
  const size_t close = stat->rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::vector<std::string> fields;
  std::istringstream in(stat->substr(close + 1));
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

bool ProcessGone(pid_t pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  auto fields = ProcStatFields(pid);
  return fields && !fields->empty() && (*fields)[0] == "Z";
}

std::string SelfExecutable() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "dfbench";
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace dfbench::core
