#!/usr/bin/env bash
# `dfbench loadgen` and memtier_benchmark against the same memcached, side by side, with the
# server's own counters beside each tool's figure, to tell a client-side difference from a
# difference in the work the server was given.
#
# Workload (as the comparison users run): memcache_text, THREADS (4) x CLIENTS (50) connections,
# pipeline 30, SET:GET 1:10, 256-byte values, DURATION seconds. memcached runs with one worker
# thread (-t 1) pinned to SERVER_CPU, both clients pinned to CLIENT_CPU. Every measurement gets a
# fresh memcached, so both tools start from an empty cache; REPEAT rounds alternate the tools.
#
# Columns, per run (REQ = requests the server counted, cmd_get + cmd_set):
#   OPS/S       the tool's own figure
#   SRV OPS/S   the server's count over the tool's measured duration
#   B/REQ       bytes the server read per request (the request forms are the same if this is)
#   SRV us/REQ  server CPU per request (all its threads, /proc schedstat), in a steady window
#               from 2 s after the start to 2 s before the end, so start-up and drain are left out
#   NOTIFY us   the part of SRV us/REQ spent in sock_def_readable (perf record in the window):
#               on loopback the server's send runs the client's TCP receive path, which signals
#               the client's epoll and wakes it if it sleeps; its share depends on the client
#   REST us     SRV us/REQ without NOTIFY us: the server's own work per request
#   CLI us/REQ  client CPU (user + sys) per request, whole run
#   REQ/SEG     requests per TCP data segment the server received, same window (`ss -ti`)
# With perf (and its tracepoints readable), counts that do not depend on how busy the machine is:
#   REQ/WRITE   requests per client write (send, sendto, write, writev) and B/WRITE bytes per one
#   REQ/CREAD   replies per client read that returned data
#   SYSC/REQ    the server's system calls per request; REQ/READ requests per server read
#   WAKE/kREQ   times per 1000 requests the server woke a sleeping thread (on one machine,
#               waking the client's threads is paid by the server's CPU)
#   RETX/kREQ   TCP retransmissions towards the server per 1000 requests (system-wide perf)
# At the end, per tool: the median of every column and the spread (min..max) of the main ones.
#
# Usage: bench/memcached_vs_memtier.sh   (env: DFBENCH, MEMTIER, MEMCACHED, DURATION, REPEAT,
#                                          SERVER_CPU, CLIENT_CPU, THREADS, CLIENTS)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
DFBENCH=${DFBENCH:-$repo/build/dfbench}
MEMTIER=${MEMTIER:-$(command -v memtier_benchmark || true)}
MEMCACHED=${MEMCACHED:-memcached}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
THREADS=${THREADS:-4}
CLIENTS=${CLIENTS:-50}

die() { echo "memcached_vs_memtier: $*" >&2; exit 1; }
[ -x "$DFBENCH" ] || die "no dfbench binary at $DFBENCH (build it, or set DFBENCH=/path)"
if [ -z "$MEMTIER" ] || [ ! -x "$MEMTIER" ]; then
  die "memtier_benchmark not found (put it on PATH or set MEMTIER=/path)"
fi
command -v "$MEMCACHED" >/dev/null || die "memcached not found"
command -v /usr/bin/time >/dev/null || die "/usr/bin/time not found (apt-get install time)"
command -v ss >/dev/null || die "ss not found (iproute2)"
[ "$DURATION" -ge 6 ] || die "DURATION must be at least 6 (the steady window is 2 s..DURATION-2)"
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

# "cmd_get cmd_set bytes_read cpu_ticks cpu_ns" of the running server: its stats and its CPU
# time (ticks from stat, nanoseconds from every thread's schedstat). With a second argument, also
# writes the TCP data segments each of its connections has received so far to that file (JSON,
# by peer), so a window counts only connections open at both ends of it.
server_counters() {
  python3 - "$1" "$server_pid" "${2:-}" <<'EOF'
import glob, json, re, socket, subprocess, sys
port, pid, segs_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
if segs_file:
    ss = subprocess.run(["ss", "-tinH", "state", "established", f"( sport = :{port} )"],
                        capture_output=True, text=True, check=True).stdout
    segs = dict(re.findall(r"\S+:\d+\s+(\S+:\d+)\s*\n[^\n]*?data_segs_in:(\d+)", ss))
    json.dump(segs, open(segs_file, "w"))
s = socket.create_connection(("127.0.0.1", port))
s.sendall(b"stats\r\n")
buf = b""
while not buf.endswith(b"END\r\n"):
    buf += s.recv(65536)
stats = dict(l.split()[1:3] for l in buf.decode().splitlines() if l.startswith("STAT "))
fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
cpu_ns = sum(int(open(f).read().split()[0]) for f in glob.glob(f"/proc/{pid}/task/*/schedstat"))
print(stats["cmd_get"], stats["cmd_set"], stats["bytes_read"], int(fields[11]) + int(fields[12]),
      cpu_ns)
EOF
}

# One measurement: tool name, then its command (the port is appended by the caller's words).
# Appends one line of figures to $work/rows and prints it.
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
  local before after win_start win_end perf_pid='' retrans_pid='' client_pid
  : >"$work/perf"
  : >"$work/cperf"
  : >"$work/retrans"
  local client_perf=()
  if [ -n "$use_perf" ]; then
    perf stat -x, -o "$work/perf" -e raw_syscalls:sys_enter -e sched:sched_waking \
      -e syscalls:sys_exit_read --filter 'ret > 0' -p "$server_pid" 2>/dev/null &
    perf_pid=$!
    # TCP retransmissions towards the server (tail loss probes fire when the server is slow to
    # acknowledge), system-wide but filtered to this server's port.
    perf stat -x, -o "$work/retrans" -a -e tcp:tcp_retransmit_skb --filter "dport == $port" \
      2>/dev/null &
    retrans_pid=$!
    client_perf=(perf stat -x "," -o "$work/cperf" -e syscalls:sys_enter_sendto
      -e syscalls:sys_enter_sendmsg -e syscalls:sys_enter_writev
      -e syscalls:sys_enter_write --filter 'fd > 2'
      -e syscalls:sys_exit_read --filter 'ret > 0' -e syscalls:sys_exit_readv --filter 'ret > 0'
      -e syscalls:sys_exit_recvfrom --filter 'ret > 0' --)
  fi
  before=$(server_counters "$port")
  "${client_perf[@]}" /usr/bin/time -f "%U %S" -o "$work/time" taskset -c "$CLIENT_CPU" "$@" \
    -p "$port" >"$work/out" 2>"$work/err" &
  client_pid=$!
  sleep 2
  win_start=$(server_counters "$port" "$work/segs.start")
  local record_pid=
  if [ -n "$use_perf" ]; then
    perf record -q -g -F 999 -o "$work/profile" -p "$server_pid" >/dev/null 2>&1 &
    record_pid=$!
  fi
  sleep $((DURATION - 4))
  win_end=$(server_counters "$port" "$work/segs.end")
  if [ -n "$record_pid" ]; then
    kill -INT "$record_pid"
    wait "$record_pid" || true
  fi
  wait "$client_pid" || die "$tool failed: $(tail -3 "$work/err")"
  after=$(server_counters "$port")
  if [ -n "$perf_pid" ]; then
    kill -INT "$perf_pid" "$retrans_pid"
    wait "$perf_pid" "$retrans_pid" || true
  fi
  # Share of the server's CPU samples inside sock_def_readable: telling the client's epoll that
  # a reply arrived (and waking it when it sleeps), paid on the server's CPU over loopback.
  local notify_pct=
  if [ -n "$record_pid" ]; then
    notify_pct=$(perf report -i "$work/profile" --children --sort sym --stdio -g none 2>/dev/null |
      awk '$NF == "sock_def_readable" && !seen++ { sub("%", "", $1); print $1 }')
  fi
  stop_server
  python3 - "$tool" "$work" "$before" "$after" "$win_start" "$win_end" "$notify_pct" \
    $((THREADS * CLIENTS)) <<'EOF'
import json, sys
tool, work = sys.argv[1], sys.argv[2]
b, a, ws, we = ([int(x) for x in arg.split()] for arg in sys.argv[3:7])
notify_pct = float(sys.argv[7]) if sys.argv[7] else None
connections = int(sys.argv[8])
report = json.load(open(f"{work}/report.json"))
stats = report["ALL STATS"]
ops_s = stats["Totals"]["Ops/sec"]
secs = stats["Runtime"]["Total duration"] / 1000.0
requests = (a[0] - b[0]) + (a[1] - b[1])
win_requests = (we[0] - ws[0]) + (we[1] - ws[1])
user, sys_ = (float(x) for x in open(f"{work}/time").read().split())
# perf counted from before the first to after the last request (connections and stats included).
def perf_counts(path):
    counts = {}
    for line in open(path):
        fields = line.strip().split(",")
        if len(fields) > 2 and fields[0].isdigit():
            counts[fields[2]] = counts.get(fields[2], 0) + int(fields[0])
    return counts
srv, cli = perf_counts(f"{work}/perf"), perf_counts(f"{work}/cperf")
retrans = perf_counts(f"{work}/retrans").get("tcp:tcp_retransmit_skb")
seg_start, seg_end = (json.load(open(f"{work}/segs.{end}")) for end in ("start", "end"))
common = seg_start.keys() & seg_end.keys()
if len(common) < connections:
    print(f"note: {tool}: {len(common)} connections seen at both ends of the window "
          f"({len(seg_start)} and {len(seg_end)})", file=sys.stderr)
# Scaled to all connections, in case a snapshot missed some.
win_segs = (sum(int(seg_end[k]) - int(seg_start[k]) for k in common) * connections /
            max(1, len(common)))
writes = sum(cli.get(f"syscalls:sys_enter_{n}", 0)
             for n in ("sendto", "sendmsg", "writev", "write"))
creads = sum(cli.get(f"syscalls:sys_exit_{n}", 0) for n in ("read", "readv", "recvfrom"))
def ratio(num, den):
    return num / den if num and den else None
row = {
    "OPS/S": ops_s,
    "SRV OPS/S": requests / secs,
    "B/REQ": (a[2] - b[2]) / requests,
    "SRV us/REQ": (we[4] - ws[4]) / 1000.0 / win_requests,
    "NOTIFY us": None if notify_pct is None else
                 notify_pct / 100 * (we[4] - ws[4]) / 1000.0 / win_requests,
    "REST us": None if notify_pct is None else
               (1 - notify_pct / 100) * (we[4] - ws[4]) / 1000.0 / win_requests,
    "CLI us/REQ": (user + sys_) * 1e6 / requests,
    "REQ/SEG": ratio(win_requests, win_segs),
    "REQ/WRITE": ratio(requests, writes),
    "B/WRITE": ratio(a[2] - b[2], writes),
    "REQ/CREAD": ratio(requests, creads),
    "SYSC/REQ": ratio(srv.get("raw_syscalls:sys_enter"), requests),
    "REQ/READ": ratio(requests, srv.get("syscalls:sys_exit_read")),
    "WAKE/kREQ": ratio(1000 * srv.get("sched:sched_waking", 0), requests),
    "RETX/kREQ": None if retrans is None else 1000 * retrans / requests,
}
with open(f"{work}/rows", "a") as f:
    f.write(json.dumps({"tool": tool, **row}) + "\n")
EOF
  print_rows last "$work/rows"
}

# From a file of JSON lines (one run each): "last" prints the last run, "median" the per-tool
# medians and spreads.
print_rows() {
  python3 - "$@" <<'EOF'
import json, statistics, sys
what, path = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(path)]
formats = {"OPS/S": "{:>10,.0f}", "SRV OPS/S": "{:>10,.0f}", "B/WRITE": "{:>8,.0f}"}
def cell(name, value):
    width = 8 if name == "B/WRITE" else 10
    if value is None:
        return f"{'-':>{width}}"
    return formats.get(name, "{:>" + str(width) + ".2f}").format(value)
if what == "last":
    r = rows[-1]
    print(f"{r['tool']:<8} " + " ".join(cell(k, v) for k, v in r.items() if k != "tool"))
    sys.exit()
print("median of", len(rows) // len({r["tool"] for r in rows}), "runs per tool:")
for tool in dict.fromkeys(r["tool"] for r in rows):
    mine = [r for r in rows if r["tool"] == tool]
    med = {}
    for k in mine[0]:
        if k == "tool":
            continue
        values = [r[k] for r in mine if r[k] is not None]
        med[k] = statistics.median(values) if values else None
    print(f"{tool:<8} " + " ".join(cell(k, v) for k, v in med.items()))
for tool in dict.fromkeys(r["tool"] for r in rows):
    mine = [r for r in rows if r["tool"] == tool]
    keys = [k for k in ("OPS/S", "SRV us/REQ", "NOTIFY us", "REST us", "REQ/WRITE")
            if all(r[k] is not None for r in mine)]
    spread = ", ".join(f"{k} " + (f"{min(r[k] for r in mine):,.0f}..{max(r[k] for r in mine):,.0f}"
                                  if k == "OPS/S" else
                                  f"{min(r[k] for r in mine):.2f}..{max(r[k] for r in mine):.2f}")
                       for k in keys)
    print(f"{tool:<8} spread: {spread}")
EOF
}

: >"$work/rows"
printf '%-8s %10s %10s %10s %10s %10s %10s %10s %10s %10s %8s %10s %10s %10s %10s %10s\n' TOOL \
  "OPS/S" "SRV OPS/S" "B/REQ" "SRV us/REQ" "NOTIFY us" "REST us" "CLI us/REQ" "REQ/SEG" \
  "REQ/WRITE" "B/WRITE" "REQ/CREAD" "SYSC/REQ" "REQ/READ" "WAKE/kREQ" "RETX/kREQ"
common=(-t "$THREADS" -c "$CLIENTS" --pipeline 30 --ratio 1:10 -d 256 --test-time "$DURATION")
for _ in $(seq "$REPEAT"); do
  measure memtier "$MEMTIER" -s 127.0.0.1 -P memcache_text "${common[@]}" --hide-histogram \
    --json-out-file "$work/report.json"
  measure dfbench "$DFBENCH" loadgen -s 127.0.0.1 --protocol memcache_text "${common[@]}" \
    --json-out-file "$work/report.json" --progress never
done
print_rows median "$work/rows"
