#!/usr/bin/env bash
# Client efficiency of `dfbench loadgen` next to memtier_benchmark and redis-benchmark, against
# one local redis-server that this script starts on a free port, in three parts:
#
# Closed loop: operations completed per client CPU-second (user + sys, from the OS). 1 client
# thread, 50 connections, 256-byte values, SET:GET 1:10 over keys 1..100000 (preloaded),
# DURATION seconds, at pipeline 30 and pipeline 1. redis-benchmark cannot mix SETs and GETs: it
# runs its SET phase, then its GET phase, over the same 100000-key range (-r), with the same 50
# connections, value size and pipeline; its figure covers both phases.
#
# Open loop: client CPU per request at a fixed rate (OPEN_RATES, ops/s) and the rate achieved,
# 1 thread x 10 connections, OPEN_DURATION seconds; ours with --rate, memtier_benchmark with
# --rate-limiting (its rate per connection: the total over 10).
#
# The syscall floor (bench/syscall_floor.cc, built as build/bench/dfbench_syscall_floor, or
# FLOOR=/path) runs beside them at each pipeline: a client that only sends requests encoded up
# front and counts reply bytes, the least CPU such a load can cost on this machine.
#
# Memory: the peak resident memory of each client holding MANY_CONNS connections (1 thread,
# pipeline 1, closed loop, MANY_DURATION seconds); the server gets a maxclients to match.
#
# The server is pinned to SERVER_CPU and every client to CLIENT_CPU. memtier_benchmark is the
# test beds' 2.3.0 (shared/testbeds/bin beside the clone) when present, else the one on PATH, or
# MEMTIER=/path. Each measurement runs REPEAT times, interleaved across tools so drift on a
# shared machine hits them alike; the tables show the median run per tool.
#
# Usage: bench/loadgen_vs_peers.sh   (env: DFBENCH, MEMTIER, DURATION, OPEN_RATES, OPEN_DURATION,
#                                     MANY_CONNS, MANY_DURATION, REPEAT, SERVER_CPU, CLIENT_CPU,
#                                     REDIS_SERVER, REDIS_BENCHMARK, FLOOR)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
REDIS_SERVER=${REDIS_SERVER:-redis-server}
REDIS_BENCHMARK=${REDIS_BENCHMARK:-redis-benchmark}
FLOOR=${FLOOR:-$repo/build/bench/dfbench_syscall_floor}
OPEN_RATES=${OPEN_RATES:-8000 30000}
OPEN_DURATION=${OPEN_DURATION:-5}
OPEN_CONNS=10
MANY_CONNS=${MANY_CONNS:-10000}
MANY_DURATION=${MANY_DURATION:-3}
KEYS=100000
CONNS=50
VALUE=256
GETS_PER_SET=10

source "$repo/bench/client_cost.sh"
command -v "$REDIS_SERVER" >/dev/null || die "redis-server not found"
[ "$(ulimit -n)" -gt $((MANY_CONNS + 100)) ] || ulimit -n $((MANY_CONNS + 1000)) 2>/dev/null ||
  die "MANY_CONNS=$MANY_CONNS needs more open files than 'ulimit -n' allows ($(ulimit -n))"

port=$(free_port)
taskset -c "$SERVER_CPU" "$REDIS_SERVER" --port "$port" --bind 127.0.0.1 --save "" \
  --appendonly no --maxclients $((MANY_CONNS + 100)) --dir "$work" >"$work/server.log" 2>&1 &
server_pids+=("$!")
wait_for_ping "$port"

# Preload every key once, so GETs hit.
"$DFBENCH" loadgen -p "$port" -t 1 -c "$CONNS" --pipeline 30 --key-pattern P:P --ratio 1:0 \
  -n allkeys --key-minimum 1 --key-maximum "$KEYS" -d "$VALUE" --progress never >/dev/null

workload=(-p "$port" -t 1 -d "$VALUE" --ratio "1:$GETS_PER_SET" --key-minimum 1
  --key-maximum "$KEYS")

for pipeline in 30 1; do
  common=("${workload[@]}" -c "$CONNS" --pipeline "$pipeline" --test-time "$DURATION")
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

    if [ -x "$FLOOR" ]; then
      timed "$FLOOR" "$port" "$CONNS" "$pipeline" "$DURATION" "$VALUE" "$KEYS" "$GETS_PER_SET"
      record "$floor_tool" "$pipeline" "$(cat "$work/stdout")"
    fi
  done
done

# One line per open-loop run: tool|target|ops|cpu_s|seconds; per many-connections run:
# tool|rss_kb|ops|wall_s.
: >"$work/open_runs"
: >"$work/many_runs"
open_run() {  # tool target json
  echo "$1|$2|$(json_count "$3")|$cpu_s|$OPEN_DURATION" >>"$work/open_runs"
}
for _ in $(seq "$REPEAT"); do
  for target in $OPEN_RATES; do
    common=("${workload[@]}" -c "$OPEN_CONNS" --test-time "$OPEN_DURATION")
    timed "$DFBENCH" loadgen "${common[@]}" --rate "$target" --progress never \
      --json-out-file "$work/dfbench.json"
    open_run "dfbench loadgen --rate" "$target" "$work/dfbench.json"
    if [ -n "$MEMTIER" ]; then
      timed "$MEMTIER" -s 127.0.0.1 "${common[@]}" --rate-limiting $((target / OPEN_CONNS)) \
        --hide-histogram --json-out-file "$work/memtier.json"
      open_run "memtier_benchmark --rate-limiting" "$target" "$work/memtier.json"
    fi
  done
  common=("${workload[@]}" -c "$MANY_CONNS" --test-time "$MANY_DURATION")
  timed "$DFBENCH" loadgen "${common[@]}" --progress never --json-out-file "$work/dfbench.json"
  echo "dfbench loadgen|$rss_kb|$(json_count "$work/dfbench.json")|$wall_s" >>"$work/many_runs"
  if [ -n "$MEMTIER" ]; then
    timed "$MEMTIER" -s 127.0.0.1 "${common[@]}" --hide-histogram \
      --json-out-file "$work/memtier.json"
    echo "memtier_benchmark|$rss_kb|$(json_count "$work/memtier.json")|$wall_s" >>"$work/many_runs"
  fi
done

echo "Closed loop: client operations per client CPU-second (redis-server on CPU $SERVER_CPU,"
echo "clients on CPU $CLIENT_CPU; 1 thread x $CONNS connections, ${VALUE}-byte values, SET:GET 1:$GETS_PER_SET,"
echo "keys 1..$KEYS, ${DURATION} s; redis-benchmark: $CONNS connections, SET phase then GET phase,"
echo "same pipeline)"
echo
print_medians "memtier_benchmark" "redis-benchmark (SET, then GET)" "$floor_tool"
[ -x "$FLOOR" ] || echo "syscall floor: skipped (no $FLOOR; build it, or set FLOOR=/path)"
echo
echo "Open loop: client CPU per request at a fixed rate (1 thread x $OPEN_CONNS connections,"
echo "${OPEN_DURATION} s; memtier_benchmark --rate-limiting is per connection: the rate over $OPEN_CONNS)"
echo
python3 - "$work/open_runs" <<'PY'
import sys
runs = {}
for line in open(sys.argv[1]):
    tool, target, ops, cpu, seconds = line.strip().split("|")
    runs.setdefault((int(target), tool), []).append(
        (float(cpu) * 1e6 / int(ops), int(ops) / float(seconds)))
print("%-34s %8s %10s %12s   %s" % ("tool", "target", "achieved", "CPU us/req",
                                    "(all runs, us/req)"))
for (target, tool), rs in sorted(runs.items()):
    rs.sort()
    per, achieved = rs[(len(rs) - 1) // 2]
    print("%-34s %8d %10.0f %12.1f   %s" % (tool, target, achieved, per,
                                           " ".join("%.1f" % r[0] for r in rs)))
PY
echo
echo "Memory: peak resident memory with $MANY_CONNS connections (1 thread, pipeline 1, ${MANY_DURATION} s)"
echo
python3 - "$work/many_runs" <<'PY'
import sys
runs = {}
for line in open(sys.argv[1]):
    tool, rss, ops, wall = line.strip().split("|")
    runs.setdefault(tool, []).append((int(rss) / 1024, int(ops) / float(wall)))
print("%-34s %10s %10s   %s" % ("tool", "RSS MB", "ops/s", "(all runs, MB)"))
for tool, rs in sorted(runs.items()):
    rs.sort()
    rss, rate = rs[(len(rs) - 1) // 2]
    print("%-34s %10.1f %10.0f   %s" % (tool, rss, rate, " ".join("%.1f" % r[0] for r in rs)))
PY
[ -n "$MEMTIER" ] || echo "memtier_benchmark: skipped (not found; set MEMTIER=/path to include it)"
