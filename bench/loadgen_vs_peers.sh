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
MEMTIER=${MEMTIER:-$(command -v memtier_benchmark || true)}
REDIS_SERVER=${REDIS_SERVER:-redis-server}
REDIS_BENCHMARK=${REDIS_BENCHMARK:-redis-benchmark}
KEYS=100000
CONNS=50
VALUE=256

source "$repo/bench/client_cost.sh"
command -v "$REDIS_SERVER" >/dev/null || die "redis-server not found"

port=$(free_port)
taskset -c "$SERVER_CPU" "$REDIS_SERVER" --port "$port" --bind 127.0.0.1 --save "" \
  --appendonly no --dir "$work" >"$work/server.log" 2>&1 &
server_pids+=("$!")
wait_for_ping "$port"

# Preload every key once, so GETs hit.
"$DFBENCH" loadgen -p "$port" -t 1 -c "$CONNS" --pipeline 30 --key-pattern P:P --ratio 1:0 \
  -n allkeys --key-minimum 1 --key-maximum "$KEYS" -d "$VALUE" --progress never >/dev/null

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
print_medians "memtier_benchmark" "redis-benchmark (SET, then GET)"
[ -n "$MEMTIER" ] || echo "memtier_benchmark: skipped (not on PATH; set MEMTIER=/path to include it)"
