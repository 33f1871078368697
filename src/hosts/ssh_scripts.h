// The fixed POSIX sh scripts SshHost runs on a host (and the leftovers' scripts, which every host
// runs: hosts/leftovers.h). They take every variable part as a
// positional argument ($1, $2 ...), never spliced into their text.
#pragma once

namespace dfbench::hosts {

// $1 setup id. Creates the work directory and prints key=value facts about the session.
inline constexpr const char* kHelloScript = R"sh(w="$HOME/.dfbench-work/$1"
mkdir -p "$w/run" "$w/daemons" || exit 1
printf 'home=%s\nuid=%s\nssh_connection=%s\nuname_s=%s\nuname_m=%s\nwork=%s\n' \
  "$HOME" "$(id -u)" "$SSH_CONNECTION" "$(uname -s)" "$(uname -m)" "$w"
)sh";

// What the wrappers print (exit 127) when the program is not on the host.
inline constexpr const char* kNotFoundMarker = "dfbench-remote: not found: ";

// $1 pid file, then the command. Runs the command in its own session (so that the whole
// process group can be killed) with its pid in the file while it runs.
inline constexpr const char* kRunWrapper = R"sh(p=$1; shift
if ! command -v "$1" >/dev/null 2>&1; then echo "dfbench-remote: not found: $1" >&2; exit 127; fi
setsid sh -c 'echo $$ >"$0" && exec "$@"' "$p" "$@"
s=$?
rm -f "$p"
exit $s
)sh";

// Exports each NAME=VALUE line of stdin (a secret environment, SshHost::Run), then runs "$@".
inline constexpr const char* kEnvFromStdin =
    R"sh(while IFS= read -r kv; do export "$kv"; done; exec "$@")sh";

// $1 pid file of a command started by kRunWrapper: kills its process group.
inline constexpr const char* kKillCommandScript = R"sh(p=$1
i=0; while [ ! -s "$p" ] && [ $i -lt 10 ]; do sleep 0.1; i=$((i+1)); done
read pid <"$p" 2>/dev/null || exit 0
case $pid in ''|*[!0-9]*) exit 0 ;; esac
kill -TERM -$pid 2>/dev/null
i=0; while kill -0 -$pid 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
kill -KILL -$pid 2>/dev/null
rm -f "$p"
exit 0
)sh";

// start_of PID: the start time of a live process that is not a zombie (fails otherwise).
// A pid together with its start time names one process even if the pid is reused.
inline constexpr const char* kStartOfFunction = R"sh(start_of() {
  s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  set -- ${s##*) }
  case $1 in Z|X) return 1 ;; esac
  echo "${20}"
}
)sh";

// $1 log, $2 working directory ("" = home), $3 registry directory, then the command. Starts
// it in its own session with its output in the log, records "pid start" in the registry and
// prints it.
inline constexpr const char* kStartDaemonScript = R"sh(log=$1; dir=$2; reg=$3; shift 3
mkdir -p "$reg" "$(dirname -- "$log")" || exit 125
if [ -n "$dir" ]; then cd "$dir" || exit 125; fi
if ! command -v "$1" >/dev/null 2>&1; then echo "dfbench-remote: not found: $1" >&2; exit 127; fi
setsid "$@" >"$log" 2>&1 </dev/null &
pid=$!
start=$(start_of $pid) || start=0
echo "$pid $start" >"$reg/$pid"
echo "$pid $start"
)sh";

// $1 pid, $2 start time: exit 0 while that process runs.
inline constexpr const char* kAliveScript = R"sh([ "$(start_of "$1")" = "$2" ]
)sh";

// $1 pid, $2 start time, $3 grace in tenths of a second, $4 registry directory: SIGTERM to
// the daemon's process group, SIGKILL after the grace; exit 1 if it survived.
inline constexpr const char* kStopDaemonScript = R"sh(pid=$1; start=$2; n=$3; reg=$4
alive() { [ "$(start_of "$pid")" = "$start" ]; }
if alive; then
  kill -TERM -$pid 2>/dev/null || kill -TERM $pid 2>/dev/null
  i=0; while alive && [ $i -lt $n ]; do sleep 0.1; i=$((i+1)); done
  if alive; then
    kill -KILL -$pid 2>/dev/null || kill -KILL $pid 2>/dev/null
    i=0; while alive && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  fi
fi
rm -f "$reg/$pid"
! alive
)sh";

// $1 program name or path: prints its absolute path (sbin directories and ~/.local/bin, where
// setup builds load generators, included).
inline constexpr const char* kWhichScript =
    R"sh(PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin:$HOME/.local/bin"
case $1 in
  /*) [ -f "$1" ] && [ -x "$1" ] && printf '%s\n' "$1" ;;
  */*) [ -f "$1" ] && [ -x "$1" ] && printf '%s\n' "$PWD/$1" ;;
  *) p=$(command -v "$1") || exit 1
     case $p in /*) printf '%s\n' "$p" ;; *) exit 1 ;; esac ;;
esac
)sh";

// group_of PGID: the pids of the live processes in process group PGID, one per line.
// stop_leftovers DIR: stops what dfbench processes left running in work directory DIR and
// removes what they wrote (hosts/leftovers.h describes the records): each recorded daemon's
// process group, when its leader is still the recorded process (by start time) or is gone (a pgid
// is not reused while its group has members, so what is left is the daemon's: a snapshot child
// forked by an engine killed with dfbench), the process groups of its commands, then the
// recorded files, and beside a recorded prefix an engine's temp-<pid>.rdb written since the
// record by a process no longer running (one it stopped, or a snapshot child that ended on its
// own: redis's exits once it cannot report to its dead parent, leaving the file). Prints
// "stopped PID" and "removed PATH" lines. Run through kRunWrapper, it spares its own command's pid
// record.
inline constexpr const char* kStopLeftoversFunction = R"sh(group_of() {
  g=$1
  for s in /proc/[0-9]*/stat; do
    l=""; read -r l 2>/dev/null <"$s" || [ -n "$l" ] || continue
    set -- ${l##*) }
    case $1 in Z|X) continue ;; esac
    [ "$3" = "$g" ] || continue
    p=${s#/proc/}; echo "${p%/stat}"
  done
}
stop_leftovers() {
  w=$1
  for f in "$w"/daemons/*; do
    [ -f "$f" ] || continue
    pid=""; start=""; read pid start <"$f"
    case $pid in ''|*[!0-9]*) rm -f "$f"; continue ;; esac
    now=$(start_of "$pid")
    if [ -z "$now" ] || [ "$now" = "$start" ]; then
      members=$(group_of "$pid")
      if [ -n "$now" ]; then
        kill -TERM -$pid 2>/dev/null || kill -TERM $pid 2>/dev/null
        i=0; while [ "$(start_of "$pid")" = "$start" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
      fi
      kill -KILL -$pid 2>/dev/null
      for m in $members; do
        i=0; while start_of "$m" >/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
        echo "stopped $m"
      done
    fi
    rm -f "$f"
  done
  for f in "$w"/run/*.pid; do
    [ -f "$f" ] || continue
    read pid <"$f" || continue
    case $pid in ''|*[!0-9]*) continue ;; esac
    [ "$pid" = "$$" ] && continue  # this very command, run by kRunWrapper
    kill -KILL -$pid 2>/dev/null
    rm -f "$f"
  done
  for f in "$w"/files/*; do
    [ -f "$f" ] || continue
    dir=""; prefix=""
    { IFS= read -r dir; IFS= read -r prefix; } <"$f"
    if [ -n "$dir" ] && [ -z "$prefix" ]; then
      if [ -e "$dir" ]; then rm -rf -- "$dir" && echo "removed $dir"; fi
    elif [ -n "$dir" ]; then
      for p in "$dir/$prefix"*; do
        if [ -e "$p" ]; then rm -rf -- "$p" && echo "removed $p"; fi
      done
      for t in "$dir"/temp-*.rdb; do
        [ -f "$t" ] || continue
        [ "$f" -nt "$t" ] && continue  # there before the record: not the killed run's
        p=${t##*/temp-}; p=${p%.rdb}
        case $p in ''|*[!0-9]*) continue ;; esac
        [ -z "$(start_of "$p")" ] || continue  # its writer still runs: not a leftover
        rm -f -- "$t" && echo "removed $t"
      done
    fi
    rm -f "$f"
  done
  return 0
}
)sh";

// clear_scratch DIR: removes the scratch files of work directory DIR (its regular files and
// snapshots/); its other directories stay.
inline constexpr const char* kClearScratchFunction = R"sh(clear_scratch() {
  [ -d "$1" ] || return 0
  for f in "$1"/* "$1"/.[!.]*; do
    if [ -f "$f" ]; then rm -f -- "$f"; fi
  done
  rm -rf -- "$1/snapshots"
}
)sh";

// $1 work directory: stops what dfbench processes left running there, then removes it.
inline constexpr const char* kRemoveWorkDirScript = R"sh(w=$1
case $w in */.dfbench-work/*) ;; *) echo "refusing to remove $w" >&2; exit 2 ;; esac
stop_leftovers "$w" >/dev/null
rm -rf -- "$w" && { rmdir -- "${w%/*}" 2>/dev/null; true; }
)sh";

}  // namespace dfbench::hosts
