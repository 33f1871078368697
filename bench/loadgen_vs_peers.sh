#!/usr/bin/env bash
# Client efficiency of `dfbench loadgen` next to memtier_benchmark and redis-benchmark:
# operations completed per client CPU-second (user + sys, from the OS), against one local
# redis-server that this script starts on a free port.
#
# Workload: 1 client thread, 50 connections, 256-byte values, SET:GET 1:10 over keys
# 1..100000 (preloaded), DURATION seconds, at pipeline 30 and pipeline 1. The server is pinned
# to SERVER_CPU and every client to CLIENT_CPU.
#
# redis-benchmark cannot mix SETs and GETs: it runs its SET phase, then its GET phase, over the
# same 100000-key range (-r), with the same 50 connections, value size and pipeline; its figure
# covers both phases. memtier_benchmark is used when it is on PATH or MEMTIER=/path is given.
#
# Each measurement runs REPEAT times (interleaved across tools, so drift on a shared machine hits
# them alike); the table shows the median run per tool and pipeline.
#
# Usage: bench/loadgen_vs_peers.sh   (env: DFBENCH, MEMTIER, DURATION, REPEAT, SERVER_CPU,
#                                     CLIENT_CPU, REDIS_SERVER, REDIS_BENCHMARK)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
DFBENCH=${DFBENCH:-$repo/build/dfbench}
MEMTIER=${MEMTIER:-$(command -v memtier_benchmark || true)}
REDIS_SERVER=${REDIS_SERVER:-redis-server}
REDIS_BENCHMARK=${REDIS_BENCHMARK:-redis-benchmark}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
KEYS=100000
CONNS=50
VALUE=256

die() { echo "loadgen_vs_peers: $*" >&2; exit 1; }
[ -x "$DFBENCH" ] || die "no dfbench binary at $DFBENCH (build it, or set DFBENCH=/path)"
command -v "$REDIS_SERVER" >/dev/null || die "redis-server not found"
command -v /usr/bin/time >/dev/null || die "/usr/bin/time not found (apt-get install time)"
command -v taskset >/dev/null || die "taskset not found (util-linux)"

work=$(mktemp -d /tmp/dfbench-bench-XXXXXX)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
taskset -c "$SERVER_CPU" "$REDIS_SERVER" --port "$port" --bind 127.0.0.1 --save "" \
  --appendonly no --dir "$work" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  redis-cli -p "$port" ping >/dev/null 2>&1 && break
  sleep 0.1
done
redis-cli -p "$port" ping >/dev/null 2>&1 || die "redis-server did not start: $(tail -3 "$work/server.log")"

# Preload every key once, so GETs hit.
"$DFBENCH" loadgen -p "$port" -t 1 -c "$CONNS" --pipeline 30 --key-pattern P:P --ratio 1:0 \
  -n allkeys --key-minimum 1 --key-maximum "$KEYS" -d "$VALUE" --progress never >/dev/null

# Runs a client pinned to CLIENT_CPU under /usr/bin/time; sets cpu_s and wall_s.
timed() {
  /usr/bin/time -f "%U %S %e" -o "$work/time" taskset -c "$CLIENT_CPU" "$@" \
    >"$work/stdout" 2>"$work/stderr" || { cat "$work/stderr" >&2; die "failed: $*"; }
  read -r user sys wall <"$work/time"
  cpu_s=$(echo "$user + $sys" | bc -l)
  wall_s=$wall
}

json_count() {  # ALL STATS.Totals.Count of a memtier-format JSON file
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ALL STATS"]["Totals"]["Count"])' "$1"
}

# One line per run: tool|pipeline|ops|cpu_s|wall_s|ops_per_cpu_s
runs="$work/runs"
: >"$runs"
record() {  # tool pipeline ops
  echo "$1|$2|$3|$cpu_s|$wall_s|$(echo "$3 / $cpu_s" | bc -l)" >>"$runs"
}

for pipeline in 30 1; do
  common=(-p "$port" -t 1 -c "$CONNS" -d "$VALUE" --ratio 1:10 --key-minimum 1
          --key-maximum "$KEYS" --pipeline "$pipeline" --test-time "$DURATION")
  for _ in $(seq "$REPEAT"); do
    timed "$DFBENCH" loadgen "${common[@]}" --progress never --json-out-file "$work/dfbench.json"
    ops=$(json_count "$work/dfbench.json")
    record "dfbench loadgen" "$pipeline" "$ops"
    rate=$(echo "$ops / $wall_s" | bc -l)

    if [ -n "$MEMTIER" ]; then
      timed "$MEMTIER" -s 127.0.0.1 "${common[@]}" --hide-histogram \
        --json-out-file "$work/memtier.json"
      record "memtier_benchmark" "$pipeline" "$(json_count "$work/memtier.json")"
    fi

    if command -v "$REDIS_BENCHMARK" >/dev/null; then
      # Size each phase to take about half the duration at the rate dfbench just reached.
      n=$(printf '%.0f' "$(echo "$rate * $DURATION / 2" | bc -l)")
      timed "$REDIS_BENCHMARK" -h 127.0.0.1 -p "$port" -c "$CONNS" -d "$VALUE" \
        -P "$pipeline" -r "$KEYS" -n "$n" -t set,get -q
      record "redis-benchmark (SET, then GET)" "$pipeline" "$((2 * n))"
    fi
  done
done

echo "Client operations per client CPU-second (redis-server on CPU $SERVER_CPU, clients on CPU"
echo "$CLIENT_CPU; 1 thread x $CONNS connections, ${VALUE}-byte values, SET:GET 1:10, keys 1..$KEYS,"
echo "${DURATION} s; redis-benchmark: $CONNS connections, SET phase then GET phase, same pipeline)"
echo
python3 - "$runs" <<'PY'
import sys
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
for pipeline in (30, 1):
    ours = median.get(("dfbench loadgen", pipeline))
    parts = []
    for tool in ("memtier_benchmark", "redis-benchmark (SET, then GET)"):
        if (tool, pipeline) in median:
            parts.append("%.2fx %s" % (ours / median[(tool, pipeline)], tool.split(" ")[0]))
    print("pipeline %d: dfbench %s" % (pipeline, ", ".join(parts) if parts else "(no peers)"))
PY
[ -n "$MEMTIER" ] || echo "memtier_benchmark: skipped (not on PATH; set MEMTIER=/path to include it)"
