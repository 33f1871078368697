// What a dfbench command leaves on a host if it dies without cleaning up (kill -9, a crash, a lost
// machine), and how the next command stops and removes it. While a command runs, records under
// the host's work directory name what it started and wrote:
//   daemons/<pid>  "<pid> <start time>": a daemon started in a process group of its own (an
//                  engine and what it forked, e.g. a BGSAVE child), removed when it is stopped;
//   files/<key>    a directory dfbench made (one line), or a directory and the name prefix of the
//                  files an engine writes there (two lines), removed when the files are.
// The same POSIX sh script reads them on every host, this machine and hosts reached over SSH,
// through Host::Run.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "hosts/host.h"

namespace dfbench::hosts {

// The record line of a daemon just started as `pid` on this machine ("<pid> <start time>", the
// start time as /proc/<pid>/stat gives it, so that a reused pid is never taken for it);
// nullopt when the process is already gone.
std::optional<std::string> LocalDaemonRecord(int pid);

// Records that `dir` on `host` is dfbench's own (`prefix` empty: removed whole) or that the files
// named `prefix`* in it are (and the engine's temporary files beside them: temp-<pid>.rdb written
// after the record by a process that no longer runs), under `key` (unique among what runs at
// once).
core::Status RecordFiles(Host& host, const std::string& key, const std::string& dir,
                         const std::string& prefix = "");
// Drops the record of `key` (its files were removed the ordinary way).
void ForgetFiles(Host& host, const std::string& key);

// Stops the process group of every recorded daemon (SIGTERM, SIGKILL after 3 s; a daemon
// already gone has what is left of its group killed), removes the recorded files and the work
// directory's scratch files (ClearScratch), and drops the records. One line on stderr names what
// it stopped and removed. Only for a work directory no live dfbench command uses.
core::Status StopLeftovers(Host& host);
// The command StopLeftovers runs on a host whose work directory is `work_dir`.
std::vector<std::string> StopLeftoversArgv(const std::string& work_dir);

// Removes the scratch files of `host`'s work directory (engine logs, load generator reports,
// snapshot directories): its regular files and snapshots/. The directories that outlive a command
// stay (records, uploaded builds, load generator builds). Called when a command that ran engines
// ends, whatever the exit path; nothing in a results file points there.
core::Status ClearScratch(Host& host);

}  // namespace dfbench::hosts
