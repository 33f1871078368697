# Shared by the client-efficiency scripts (source it): the settings they share, a scratch
# directory and the servers started in it, cleaned up on exit; clients timed on CLIENT_CPU; runs
# recorded (measure_pair: ours, then memtier on the same flags) and their medians printed, ours
# next to each peer.
#   needs: repo; sets: work, server_pids, cpu_s, wall_s

DFBENCH=${DFBENCH:-$repo/build/dfbench}
# The test beds' memtier_benchmark 2.3.0 first, so every machine measures the same build.
testbed_bin=$repo/../shared/testbeds/bin
if [ -z "${MEMTIER:-}" ]; then
  if [ -x "$testbed_bin/memtier_benchmark" ]; then
    MEMTIER=$testbed_bin/memtier_benchmark
  else
    MEMTIER=$(command -v memtier_benchmark || true)
  fi
fi
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}

die() { echo "$(basename "$0" .sh): $*" >&2; exit 1; }
[ -x "$DFBENCH" ] || die "no dfbench binary at $DFBENCH (build it, or set DFBENCH=/path)"
command -v /usr/bin/time >/dev/null || die "/usr/bin/time not found (apt-get install time)"
command -v taskset >/dev/null || die "taskset not found (util-linux)"

work=$(mktemp -d /tmp/dfbench-bench-XXXXXX)
server_pids=()
cleanup() {
  for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_for_ping() {  # port: waits up to 5 s for a RESP server there to answer PING
  for _ in $(seq 50); do
    python3 - "$1" <<'PY' 2>/dev/null && return 0
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1)
s.sendall(b"PING\r\n")
sys.exit(0 if s.recv(16).startswith(b"+PONG") else 1)
PY
    sleep 0.1
  done
  die "no server answered on port $1 (logs in $work)"
}

# Runs a client pinned to CLIENT_CPU under /usr/bin/time; sets cpu_s, wall_s and rss_kb (its
# peak resident memory).
timed() {
  /usr/bin/time -f "%U %S %e %M" -o "$work/time" taskset -c "$CLIENT_CPU" "$@" \
    >"$work/stdout" 2>"$work/stderr" || { cat "$work/stderr" >&2; die "failed: $*"; }
  read -r user sys wall rss_kb <"$work/time"
  cpu_s=$(echo "$user + $sys" | bc -l)
  wall_s=$wall
}

json_count() {  # ALL STATS.Totals.Count of a memtier-format JSON file
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ALL STATS"]["Totals"]["Count"])' "$1"
}

# One line per run: tool|pipeline|ops|cpu_s|wall_s|ops_per_cpu_s
: >"$work/runs"
# The name the syscall floor's runs are recorded under (bench/syscall_floor.cc).
floor_tool="syscall floor"
record() {  # tool pipeline ops
  echo "$1|$2|$3|$cpu_s|$wall_s|$(echo "$3 / $cpu_s" | bc -l)" >>"$work/runs"
}

# One run of each, dfbench loadgen then memtier_benchmark, on the same flags (both tools spell
# them alike), recorded under `pipeline`.
measure_pair() {  # pipeline, then the flags
  local pipeline=$1
  shift
  timed "$DFBENCH" loadgen "$@" --progress never --json-out-file "$work/dfbench.json"
  record "dfbench loadgen" "$pipeline" "$(json_count "$work/dfbench.json")"
  timed "$MEMTIER" -s 127.0.0.1 "$@" --hide-histogram --json-out-file "$work/memtier.json"
  record "memtier_benchmark" "$pipeline" "$(json_count "$work/memtier.json")"
}

# The median run of each tool and pipeline, then ours over each peer named, and the syscall
# floor's over the first peer when the floor ran.
print_medians() {  # peer tool names
  FLOOR_TOOL=$floor_tool python3 - "$work/runs" "$@" <<'PY'
import os, sys
runs = {}
for line in open(sys.argv[1]):
    tool, pipeline, ops, cpu, wall, per = line.strip().split("|")
    runs.setdefault((tool, int(pipeline)), []).append((float(per), int(ops), float(cpu), float(wall)))
print("%-32s %8s %12s %8s %8s %14s   %s" % ("tool", "pipeline", "ops", "cpu_s", "wall_s",
                                          "ops/cpu-s", "(all runs, ops/cpu-s)"))
median = {}
for (tool, pipeline), rs in sorted(runs.items(), key=lambda kv: (-kv[0][1], kv[0][0])):
    rs.sort()
    per, ops, cpu, wall = rs[(len(rs) - 1) // 2] if len(rs) % 2 else rs[len(rs) // 2]
    median[(tool, pipeline)] = per
    print("%-32s %8d %12d %8.2f %8.2f %14.0f   %s" % (tool, pipeline, ops, cpu, wall, per,
                                                   " ".join("%.0f" % r[0] for r in rs)))
print()
for pipeline in sorted({p for _, p in median}, reverse=True):
    ours = median.get(("dfbench loadgen", pipeline))
    parts = []
    for tool in sys.argv[2:]:
        if ours and (tool, pipeline) in median:
            parts.append("%.2fx %s" % (ours / median[(tool, pipeline)], tool.split(" (")[0]))
    print("pipeline %d: dfbench %s" % (pipeline, ", ".join(parts) if parts else "(no peers)"))
    floor = median.get((os.environ["FLOOR_TOOL"], pipeline))
    if floor and sys.argv[2:] and (sys.argv[2], pipeline) in median:
        print("pipeline %d: %s %.2fx %s (a client that makes only the system calls)" %
              (pipeline, os.environ["FLOOR_TOOL"], floor / median[(sys.argv[2], pipeline)],
               sys.argv[2].split(" (")[0]))
PY
}
