#include "hosts/process_memory.h"

#include <sstream>

namespace dfbench::hosts {
namespace {

// $1 is the root pid. The parent links come from every /proc/<pid>/stat (the command name may
// hold spaces, so fields are counted after its closing parenthesis); `cat` skips processes
// that end between the listing and the read, where awk would stop.
constexpr const char* kScript = R"sh(root=$1
[ -r "/proc/$root/smaps_rollup" ] || { echo "process $root is gone" >&2; exit 3; }
pids=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$root" '
  { pid = $1; rest = $0; sub(/.*\) /, "", rest); split(rest, f, " "); parent[pid] = f[2] }
  END {
    keep[root] = 1
    do { grown = 0; for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grown = 1 } } while (grown)
    for (p in keep) print p
  }')
files=
for p in $pids; do files="$files /proc/$p/smaps_rollup"; done
# shellcheck disable=SC2086
cat $files 2>/dev/null | awk -v n="$(echo $pids | wc -w)" '
  /^Rss:/ { rss += $2 } /^Pss:/ { pss += $2 } END { printf "%d %d %d\n", n, rss, pss }'
awk '/^MemAvailable:/ { print $2 }' /proc/meminfo
)sh";

}  // namespace

core::Result<ProcessTreeMemory> ReadProcessTreeMemory(Host& host, int root_pid) {
  auto out = host.Run({.argv = {"sh", "-c", kScript, "sh", std::to_string(root_pid)},
                       .timeout = std::chrono::seconds(30)});
  if (!out) return tl::unexpected(out.error());
  if (!out->status.ok()) {
    return core::Fail(core::ErrorKind::kFailure,
                      "reading the memory of process " + std::to_string(root_pid) + " on " +
                          host.Name() + ": " +
                          (out->err.empty() ? out->status.Describe() : out->err));
  }
  return ParseProcessTreeMemory(out->out);
}

core::Result<ProcessTreeMemory> ParseProcessTreeMemory(const std::string& out) {
  std::istringstream in(out);
  ProcessTreeMemory m;
  uint64_t rss_kb = 0, pss_kb = 0, available_kb = 0;
  if (!(in >> m.processes >> rss_kb >> pss_kb >> available_kb) || m.processes <= 0) {
    return core::Fail(core::ErrorKind::kFailure, "unexpected process memory output: " + out);
  }
  m.rss_bytes = rss_kb * 1024;
  m.pss_bytes = pss_kb * 1024;
  m.mem_available_bytes = available_kb * 1024;
  return m;
}

}  // namespace dfbench::hosts
