// Child processes: spawn with redirection, CPU affinity and parent-death signal; wait; capture.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace dfbench::core {

struct SpawnOptions {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH when it has no '/'
  std::string stdout_path;        // empty: inherit; otherwise truncated and written
  std::string stderr_path;        // empty: inherit; equal to stdout_path: merged
  std::string stdin_path;         // empty: /dev/null; otherwise read from this file
  bool append = false;            // append to the output files instead of truncating
  std::vector<int> cpus;          // empty: no pinning
  bool new_process_group = true;  // a terminal's Ctrl+C reaches dfbench only; it stops children
  bool die_with_parent = true;    // SIGKILL the child if dfbench dies without cleaning up
  std::string working_dir;        // empty: inherit
  std::vector<std::pair<std::string, std::string>> extra_env;
};

// How a child ended.
struct ExitStatus {
  int code = 0;    // exit code when exited normally
  int signal = 0;  // terminating signal, or 0
  bool ok() const { return code == 0 && signal == 0; }
  std::string Describe() const;  // "exit code 1", "killed by signal 9"
};

// A spawned child. Move-only; destroying a running Process kills it (SIGKILL) and reaps it.
class Process {
 public:
  Process() = default;
  explicit Process(pid_t pid, bool own_group) : pid_(pid), own_group_(own_group) {}
  Process(Process&& other) noexcept;
  Process& operator=(Process&& other) noexcept;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process();

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0 && !status_; }

  // Non-blocking: the exit status if the child has ended.
  std::optional<ExitStatus> Poll();
  // Blocks until the child ends.
  ExitStatus Wait();
  // Waits up to `timeout`; nullopt if still running.
  std::optional<ExitStatus> WaitFor(std::chrono::milliseconds timeout);
  // Sends `sig` to the child (its whole group when it leads one).
  void Signal(int sig);
  // SIGTERM, wait up to `grace`, then SIGKILL and reap.
  ExitStatus Terminate(std::chrono::milliseconds grace);

 private:
  pid_t pid_ = -1;
  bool own_group_ = false;
  std::optional<ExitStatus> status_;
};

Result<Process> Spawn(const SpawnOptions& options);

struct CapturedOutput {
  ExitStatus status;
  std::string out;
  std::string err;
};

// Whether SIGINT/SIGTERM cut a child short: yes for work; no for the short reads and copies
// that keep what was measured, and for cleanup (the timeout still bounds them).
enum class Interrupts { kObey, kIgnore };

struct RunOptions {
  std::chrono::milliseconds timeout = std::chrono::seconds(60);
  Interrupts interrupts = Interrupts::kObey;
  std::string stdin_data;  // small inputs only (written before reading the output)
  std::string stdin_path;  // when set, stdin is this file instead (any size)
  std::vector<int> cpus;   // empty: no pinning
  // Set in the child's environment (a secret kept off its command line).
  std::vector<std::pair<std::string, std::string>> extra_env;
  // kInherit: the child's stderr is ours (a live progress line reaches the terminal) and
  // CapturedOutput::err stays empty.
  enum class Stderr { kCapture, kInherit } stderr_mode = Stderr::kCapture;
};

// Runs argv to completion, capturing stdout (and stderr unless inherited). Fails with
// kEnvironment when the program cannot be started, with kFailure on timeout, with
// kInterrupted on SIGINT/SIGTERM unless told to ignore them (the child's process group is
// killed in both cases).
// A non-zero exit is not an error here: inspect status.
Result<CapturedOutput> RunCapture(const std::vector<std::string>& argv, const RunOptions& options);
inline Result<CapturedOutput> RunCapture(
    const std::vector<std::string>& argv,
    std::chrono::milliseconds timeout = std::chrono::seconds(60),
    const std::string& stdin_data = "") {
  return RunCapture(argv, RunOptions{.timeout = timeout, .stdin_data = stdin_data});
}

// Absolute path of `program` found on PATH (or `program` itself if it contains '/' and is
// executable); nullopt otherwise.
std::optional<std::string> FindOnPath(const std::string& program);

// The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses
// and ends at the last ')'): [0] is the state, [19] the start time; nullopt when it is gone.
std::optional<std::vector<std::string>> ProcStatFields(pid_t pid);

// True when no process `pid` runs: it never existed, was reaped, or has exited and waits as a
// zombie for a parent that is not us (an orphan whose reaper is slow).
bool ProcessGone(pid_t pid);

// Path of the running executable (/proc/self/exe).
std::string SelfExecutable();

}  // namespace dfbench::core
