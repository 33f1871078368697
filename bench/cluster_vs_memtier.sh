#!/usr/bin/env bash
# Cluster-mode client efficiency: `dfbench loadgen --cluster-mode` next to
# `memtier_benchmark --cluster-mode`, as operations completed per client CPU-second (user + sys,
# from the OS), against one local Redis Cluster of NODES primaries that this script starts and
# forms (valkey-cli or redis-cli --cluster create).
#
# Workload: 1 client thread, CLIENTS clients (each with a connection to every primary),
# 256-byte values, SET:GET 1:10 over keys 1..100000 (preloaded), DURATION seconds, at pipeline 30
# and pipeline 1. The servers are pinned to SERVER_CPU and the clients to CLIENT_CPU. Each
# measurement runs REPEAT times, interleaved; the table shows the median run per tool.
#
# Usage: bench/cluster_vs_memtier.sh   (env: DFBENCH, MEMTIER, CLUSTER_CLI, NODES, CLIENTS,
#                                      DURATION, REPEAT, SERVER_CPU, CLIENT_CPU, REDIS_SERVER)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
REDIS_SERVER=${REDIS_SERVER:-redis-server}
NODES=${NODES:-3}
CLIENTS=${CLIENTS:-20}
KEYS=100000
VALUE=256

source "$repo/bench/client_cost.sh"
CLUSTER_CLI=${CLUSTER_CLI:-$(command -v redis-cli || echo "$testbed_bin/valkey-cli")}
[ -x "$MEMTIER" ] || die "memtier_benchmark not found (set MEMTIER=/path)"
[ -x "$(command -v "$CLUSTER_CLI")" ] || die "no redis-cli or valkey-cli to form the cluster"

ports=()
for _ in $(seq "$NODES"); do
  port=$(free_port)
  bus=$(free_port)
  taskset -c "$SERVER_CPU" "$REDIS_SERVER" --port "$port" --bind 127.0.0.1 --save "" \
    --appendonly no --cluster-enabled yes --cluster-port "$bus" \
    --cluster-config-file "nodes-$port.conf" --dir "$work" >"$work/server-$port.log" 2>&1 &
  server_pids+=("$!")
  ports+=("$port")
done
for port in "${ports[@]}"; do wait_for_ping "$port"; done
"$CLUSTER_CLI" --cluster create $(printf '127.0.0.1:%s ' "${ports[@]}") --cluster-yes \
  >"$work/create.log" 2>&1 || die "cluster create failed: $(tail -3 "$work/create.log")"
for _ in $(seq 100); do
  "$CLUSTER_CLI" -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok' && break
  sleep 0.1
done
seed=${ports[0]}

"$DFBENCH" loadgen --cluster-mode -p "$seed" -t 1 -c 10 --pipeline 30 --key-pattern P:P \
  --ratio 1:0 -n allkeys --key-minimum 1 --key-maximum "$KEYS" -d "$VALUE" --progress never \
  >/dev/null

for pipeline in 30 1; do
  common=(-p "$seed" -t 1 -c "$CLIENTS" -d "$VALUE" --ratio 1:10 --key-minimum 1
          --key-maximum "$KEYS" --pipeline "$pipeline" --test-time "$DURATION" --cluster-mode)
  for _ in $(seq "$REPEAT"); do measure_pair "$pipeline" "${common[@]}"; done
done

echo "Cluster mode: client operations per client CPU-second ($NODES redis-server primaries on"
echo "CPU $SERVER_CPU, clients on CPU $CLIENT_CPU; 1 thread x $CLIENTS clients x $NODES nodes,"
echo "${VALUE}-byte values, SET:GET 1:10, keys 1..$KEYS, ${DURATION} s)"
echo
print_medians "memtier_benchmark"
