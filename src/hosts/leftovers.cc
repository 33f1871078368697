#include "hosts/leftovers.h"

#include <fmt/ranges.h>

#include <sstream>
#include <vector>

#include "core/files.h"
#include "core/format.h"
#include "core/log.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "hosts/ssh_scripts.h"

namespace dfbench::hosts {
namespace {

constexpr std::chrono::milliseconds kRecordTimeout = std::chrono::seconds(30);
// Each daemon may take 3 s to stop and its group 5 s more to go.
constexpr std::chrono::milliseconds kStopTimeout = std::chrono::minutes(2);

// $1 work directory, $2 key, $3 directory, $4 prefix.
constexpr const char* kRecordFilesScript =
    R"sh(mkdir -p -- "$1/files" && printf '%s\n%s\n' "$3" "$4" >"$1/files/$2"
)sh";

// `sh -c script sh args...`: the script reads its arguments as $1, $2...
std::vector<std::string> ShArgv(const std::string& script, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"sh", "-c", script, "sh"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

core::Result<CommandOutput> RunScript(Host& host, const std::string& script,
                                      const std::vector<std::string>& args,
                                      std::chrono::milliseconds timeout) {
  // Cleanup: it runs after Ctrl+C too.
  return host.Run(
      {.argv = ShArgv(script, args), .timeout = timeout, .interrupts = core::Interrupts::kIgnore});
}

core::Status Checked(const core::Result<CommandOutput>& r, const std::string& what, Host& host) {
  if (!r) return tl::unexpected(core::WithContext(r.error(), what + " on " + host.Name()));
  if (!r->status.ok()) {
    return core::Fail(
        core::ErrorKind::kEnvironment,
        core::Format("cannot {} on {}: {}", what, host.Name(),
                     core::FirstLine(r->err.empty() ? r->status.Describe() : r->err)));
  }
  return core::Ok();
}

// "stopped PID" and "removed PATH" lines as one note.
void NoteWhatWasDone(Host& host, const std::string& out) {
  std::vector<std::string> stopped, removed;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("stopped ", 0) == 0) stopped.push_back(line.substr(8));
    if (line.rfind("removed ", 0) == 0) removed.push_back(line.substr(8));
  }
  if (stopped.empty() && removed.empty()) return;
  std::string note = host.Name() + ":";
  if (!stopped.empty())
    note += " stopped process(es) " + core::Format("{}", fmt::join(stopped, ", "));
  if (!removed.empty())
    note += (stopped.empty() ? " removed " : "; removed ") +
            core::Format("{}", fmt::join(removed, ", "));
  core::Note(note + " left by that command");
}

}  // namespace

std::optional<std::string> LocalDaemonRecord(int pid) {
  auto fields = core::ProcStatFields(pid);
  if (!fields || fields->size() < 20) return std::nullopt;
  return std::to_string(pid) + " " + (*fields)[19];
}

core::Status RecordFiles(Host& host, const std::string& key, const std::string& dir,
                         const std::string& prefix) {
  auto work = host.WorkDir();
  if (!work) return tl::unexpected(work.error());
  return Checked(RunScript(host, kRecordFilesScript, {*work, key, dir, prefix}, kRecordTimeout),
                 "record " + dir, host);
}

void ForgetFiles(Host& host, const std::string& key) {
  auto work = host.WorkDir();
  if (!work) return;
  (void)host.Run({.argv = {"rm", "-f", "--", *work + "/files/" + key},
                  .timeout = kRecordTimeout,
                  .interrupts = core::Interrupts::kIgnore});
}

std::vector<std::string> StopLeftoversArgv(const std::string& work_dir) {
  return ShArgv(std::string(kStartOfFunction) + kStopLeftoversFunction + kClearScratchFunction +
                    "stop_leftovers \"$1\" && clear_scratch \"$1\"\n",
                {work_dir});
}

core::Status StopLeftovers(Host& host) {
  auto work = host.WorkDir();
  if (!work) return tl::unexpected(work.error());
  auto r = host.Run({.argv = StopLeftoversArgv(*work),
                     .timeout = kStopTimeout,
                     .interrupts = core::Interrupts::kIgnore});
  if (r) NoteWhatWasDone(host, r->out);
  return Checked(r, "stop what was left in " + *work, host);
}

core::Status ClearScratch(Host& host) {
  auto work = host.WorkDir();
  if (!work) return tl::unexpected(work.error());
  return Checked(RunScript(host, std::string(kClearScratchFunction) + "clear_scratch \"$1\"\n",
                           {*work}, kRecordTimeout),
                 "clear " + *work, host);
}

}  // namespace dfbench::hosts
