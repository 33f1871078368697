#!/usr/bin/env bash
# `dfbench loadgen` and memtier_benchmark against the same memcached, side by side, with the
# server's own counters beside each tool's figure, to tell a client-side difference from a
# difference in the work the server was given.
#
# Workload (as the comparison users run): memcache_text, 4 threads x 50 connections, pipeline 30,
# SET:GET 1:10, 256-byte values, DURATION seconds. memcached runs with one worker thread (-t 1)
# pinned to SERVER_CPU, both clients pinned to CLIENT_CPU. Every measurement gets a fresh
# memcached, so both tools start from an empty cache; REPEAT rounds alternate the tools.
#
# Per run it prints the tool's ops/s, the server's ops/s (cmd_get + cmd_set over the tool's own
# measured duration), the server's bytes read per request, its CPU time per request (user + sys
# from /proc) and the client's CPU seconds. Equal bytes and equal server CPU per request mean the
# server got the same work; a gap in ops/s is then the client's or the clock's.
# With perf (and its tracepoints readable), counts that do not depend on how busy the machine is
# follow: the server's system calls per request, requests per read that returned data, and the
# times per 1000 requests it woke a sleeping thread (on one machine, waking the client's threads
# is paid by the server's CPU).
#
# Usage: bench/memcached_vs_memtier.sh   (env: DFBENCH, MEMTIER, MEMCACHED, DURATION, REPEAT,
#                                          SERVER_CPU, CLIENT_CPU)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
DFBENCH=${DFBENCH:-$repo/build/dfbench}
MEMTIER=${MEMTIER:-$(command -v memtier_benchmark || true)}
MEMCACHED=${MEMCACHED:-memcached}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}

die() { echo "memcached_vs_memtier: $*" >&2; exit 1; }
[ -x "$DFBENCH" ] || die "no dfbench binary at $DFBENCH (build it, or set DFBENCH=/path)"
[ -n "$MEMTIER" ] && [ -x "$MEMTIER" ] ||
  die "memtier_benchmark not found (put it on PATH or set MEMTIER=/path)"
command -v "$MEMCACHED" >/dev/null || die "memcached not found"
command -v /usr/bin/time >/dev/null || die "/usr/bin/time not found (apt-get install time)"
use_perf=
if command -v perf >/dev/null && perf stat -e raw_syscalls:sys_enter -- true >/dev/null 2>&1; then
  use_perf=1
fi

work=$(mktemp -d /tmp/dfbench-bench-XXXXXX)
server_pid=
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=
}
trap 'stop_server; rm -rf "$work"' EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# "cmd_get cmd_set bytes_read utime_ticks+stime_ticks" of the running server.
server_counters() {
  python3 - "$1" "$server_pid" <<'EOF'
import socket, sys
port, pid = int(sys.argv[1]), sys.argv[2]
s = socket.create_connection(("127.0.0.1", port))
s.sendall(b"stats\r\n")
buf = b""
while not buf.endswith(b"END\r\n"):
    buf += s.recv(65536)
stats = dict(l.split()[1:3] for l in buf.decode().splitlines() if l.startswith("STAT "))
fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
print(stats["cmd_get"], stats["cmd_set"], stats["bytes_read"], int(fields[11]) + int(fields[12]))
EOF
}

# One measurement: tool name, then its command (the port is appended by the caller's words).
measure() {
  local tool=$1 port
  shift
  port=$(free_port)
  taskset -c "$SERVER_CPU" "$MEMCACHED" -u "$(id -un)" -l 127.0.0.1 -p "$port" -t 1 -m 1024 \
    >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
    sleep 0.1
  done
  local before after perf_pid=
  : >"$work/perf"
  if [ -n "$use_perf" ]; then
    perf stat -x, -o "$work/perf" -e raw_syscalls:sys_enter -e sched:sched_waking \
      -e syscalls:sys_exit_read --filter 'ret > 0' -p "$server_pid" 2>/dev/null &
    perf_pid=$!
  fi
  before=$(server_counters "$port")
  /usr/bin/time -f "%U %S" -o "$work/time" taskset -c "$CLIENT_CPU" "$@" -p "$port" \
    >"$work/out" 2>"$work/err" || die "$tool failed: $(tail -3 "$work/err")"
  after=$(server_counters "$port")
  if [ -n "$perf_pid" ]; then
    kill -INT "$perf_pid"
    wait "$perf_pid" || true
  fi
  stop_server
  python3 - "$tool" "$work" "$before" "$after" <<'EOF'
import json, sys
tool, work = sys.argv[1], sys.argv[2]
b = [int(x) for x in sys.argv[3].split()]
a = [int(x) for x in sys.argv[4].split()]
report = json.load(open(f"{work}/report.json"))
stats = report["ALL STATS"]
ops_s = stats["Totals"]["Ops/sec"]
secs = stats["Runtime"]["Total duration"] / 1000.0
requests = (a[0] - b[0]) + (a[1] - b[1])
user, sys_ = (float(x) for x in open(f"{work}/time").read().split())
ticks = a[3] - b[3]
# perf counted from before the first to after the last request (connections and stats included).
counts = {}
for line in open(f"{work}/perf"):
    fields = line.strip().split(",")
    if len(fields) > 2 and fields[0].isdigit():
        counts[fields[2]] = int(fields[0])
def per(name, scale=1.0, fmt="{:>9.3f}"):
    if name not in counts or not counts[name]:
        return f"{'-':>9}"
    return fmt.format(counts[name] * scale / requests)
reads = counts.get("syscalls:sys_exit_read", 0)
print(f"{tool:<8} {ops_s:>12,.0f} {requests / secs:>12,.0f} {(a[2] - b[2]) / requests:>9.1f} "
      f"{ticks * 10000.0 / requests:>10.2f} {user + sys_:>9.2f} {per('raw_syscalls:sys_enter')} "
      f"{(f'{requests / reads:>9.1f}' if reads else f'{chr(45):>9}')} "
      f"{per('sched:sched_waking', 1000.0, '{:>9.1f}')}")
EOF
}

printf '%-8s %12s %12s %9s %10s %9s %9s %9s %9s\n' TOOL "OPS/S" "SERVER OPS/S" "B/REQ" \
  "SRV us/REQ" "CLIENT s" "SYSC/REQ" "REQ/READ" "WAKE/kREQ"
common=(-t 4 -c 50 --pipeline 30 --ratio 1:10 -d 256 --test-time "$DURATION")
for _ in $(seq "$REPEAT"); do
  measure memtier "$MEMTIER" -s 127.0.0.1 -P memcache_text "${common[@]}" --hide-histogram \
    --json-out-file "$work/report.json"
  measure dfbench "$DFBENCH" loadgen -s 127.0.0.1 --protocol memcache_text "${common[@]}" \
    --json-out-file "$work/report.json" --progress never
done
