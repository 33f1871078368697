#!/usr/bin/env bash
# TLS client efficiency: `dfbench loadgen --tls` next to `memtier_benchmark --tls`, as operations
# completed per client CPU-second (user + sys, from the OS), against one local redis-server that
# serves TLS with certificates this script makes (openssl); then what a TLS handshake costs a
# client, which is what every reconnect pays: the client CPU of opening CONNS connections and
# sending one request on each, with TLS and without.
#
# Workload: 1 client thread, CLIENTS connections, 256-byte values, SET:GET 1:10 over keys
# 1..100000 (preloaded), DURATION seconds, at pipeline 30 and pipeline 1; both verify the
# server against the CA. The server is pinned to SERVER_CPU and the clients to CLIENT_CPU. Each
# measurement runs REPEAT times, interleaved; the tables show the median run per tool.
#
# Usage: bench/tls_vs_memtier.sh   (env: DFBENCH, MEMTIER, CLIENTS, CONNS, DURATION, REPEAT,
#                                  SERVER_CPU, CLIENT_CPU, REDIS_SERVER)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
REDIS_SERVER=${REDIS_SERVER:-redis-server}
CLIENTS=${CLIENTS:-50}
CONNS=${CONNS:-500}
KEYS=100000
VALUE=256

source "$repo/bench/client_cost.sh"
[ -x "$MEMTIER" ] || die "memtier_benchmark not found (set MEMTIER=/path)"
command -v openssl >/dev/null || die "openssl not found (apt-get install openssl)"
memtier_help=$("$MEMTIER" --help 2>&1 || true)
grep -q -- '--tls ' <<<"$memtier_help" || die "$MEMTIER was built without TLS"

# A CA and a server certificate it signed, for 127.0.0.1.
key_opts=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
openssl req -x509 "${key_opts[@]}" -keyout "$work/ca.key" -out "$work/ca.crt" -days 1 \
  -subj /CN=bench-ca 2>/dev/null
openssl req "${key_opts[@]}" -keyout "$work/server.key" -out "$work/server.csr" \
  -subj /CN=localhost 2>/dev/null
echo "subjectAltName=IP:127.0.0.1" >"$work/server.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" \
  -CAcreateserial -days 1 -out "$work/server.crt" -extfile "$work/server.ext" 2>/dev/null

plain=$(free_port)
port=$(free_port)
taskset -c "$SERVER_CPU" "$REDIS_SERVER" --port "$plain" --tls-port "$port" --bind 127.0.0.1 \
  --save "" --appendonly no --maxclients 10000 --tls-cert-file "$work/server.crt" \
  --tls-key-file "$work/server.key" --tls-ca-cert-file "$work/ca.crt" --tls-auth-clients no \
  >"$work/server.log" 2>&1 &
server_pids+=("$!")
wait_for_ping "$plain"
tls=(--tls --cacert "$work/ca.crt")

"$DFBENCH" loadgen -p "$port" "${tls[@]}" -t 1 -c 10 --pipeline 30 --key-pattern P:P \
  --ratio 1:0 -n allkeys --key-minimum 1 --key-maximum "$KEYS" -d "$VALUE" --progress never \
  >/dev/null

for pipeline in 30 1; do
  common=(-p "$port" "${tls[@]}" -t 1 -c "$CLIENTS" -d "$VALUE" --ratio 1:10 --key-minimum 1
          --key-maximum "$KEYS" --pipeline "$pipeline" --test-time "$DURATION")
  for _ in $(seq "$REPEAT"); do measure_pair "$pipeline" "${common[@]}"; done
done

echo "TLS: client operations per client CPU-second (redis-server --tls-port on CPU $SERVER_CPU,"
echo "clients on CPU $CLIENT_CPU; 1 thread x $CLIENTS connections, ${VALUE}-byte values,"
echo "SET:GET 1:10, keys 1..$KEYS, ${DURATION} s, the server verified against the CA)"
echo
print_medians "memtier_benchmark"

# The cost of a connection: CONNS connections (10 threads' worth, in one thread) each opened,
# set up and sent one GET, with and without TLS; client CPU per connection.
: >"$work/connects"
for _ in $(seq "$REPEAT"); do
  for transport in plain tls; do
    if [ "$transport" = tls ]; then
      target=(-p "$port" "${tls[@]}")
    else
      target=(-p "$plain")
    fi
    one=("${target[@]}" -t 1 -c "$CONNS" -n 1 --ratio 0:1 --key-minimum 1 --key-maximum "$KEYS")
    timed "$DFBENCH" loadgen "${one[@]}" --progress never
    echo "dfbench loadgen|$transport|$cpu_s" >>"$work/connects"
    timed "$MEMTIER" -s 127.0.0.1 "${one[@]}" --hide-histogram
    echo "memtier_benchmark|$transport|$cpu_s" >>"$work/connects"
  done
done
echo
echo "What a connection costs the client: $CONNS connections opened, each sending one GET"
echo "(client CPU in ms per connection, median of $REPEAT; the TLS - plain difference is what"
echo "each reconnect's handshake adds)"
echo
python3 - "$work/connects" "$CONNS" <<'PY'
import sys
runs = {}
for line in open(sys.argv[1]):
    tool, transport, cpu = line.strip().split("|")
    runs.setdefault((tool, transport), []).append(float(cpu))
conns = int(sys.argv[2])
def med(v):
    v = sorted(v)
    return v[len(v) // 2]
print("%-20s %12s %12s %14s" % ("tool", "plain ms", "tls ms", "handshake ms"))
for tool in ("dfbench loadgen", "memtier_benchmark"):
    plain = med(runs[(tool, "plain")]) * 1000 / conns
    tls = med(runs[(tool, "tls")]) * 1000 / conns
    print("%-20s %12.3f %12.3f %14.3f" % (tool, plain, tls, tls - plain))
PY
