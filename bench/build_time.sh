#!/usr/bin/env bash
# How long a clean build takes on this machine without a compiler cache: what a new user waits
# for on a fresh clone before the first result. Configures a fresh build directory, builds the
# given target with every CPU (CCACHE_DISABLE=1), and prints wall and CPU seconds next to the
# goal (a clean `dfbench` in at most 120 s on 2 CPUs).
#
# Usage: bench/build_time.sh [--file-by-file] [TARGET...]   (default target: dfbench)
#   --file-by-file   also time the same build without the unity build (-DDFBENCH_UNITY=OFF),
#                    side by side; slow (many minutes on 2 CPUs)
# Env: BUILD_TYPE (default Release), JOBS (default nproc), BUILD_TESTS=ON to configure the tests
# (needed for test targets, e.g. `BUILD_TESTS=ON bench/build_time.sh all`)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
compare=0
if [ "${1:-}" = "--file-by-file" ]; then
  compare=1
  shift
fi
targets=("${@:-dfbench}")
jobs=${JOBS:-$(nproc)}
goal_s=120

command -v /usr/bin/time >/dev/null || { echo "build_time: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }

work=$(mktemp -d /tmp/dfbench-build-time-XXXXXX)
trap 'rm -rf "$work"' EXIT

# Prints "WALL CPU" seconds of one clean configure + build into $work/NAME.
timed_build() {
  local name=$1
  shift
  local dir=$work/$name
  /usr/bin/time -f '%e %U %S' -o "$work/$name.time" env CCACHE_DISABLE=1 bash -c '
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE="$3" -DDFBENCH_WERROR=ON \
      -DDFBENCH_BUILD_TESTS="$4" -DDFBENCH_BUILD_BENCH=OFF "${@:7}" >/dev/null &&
      cmake --build "$2" -j"$5" --target $6 >/dev/null' _ "$repo" "$dir" "${BUILD_TYPE:-Release}" \
    "${BUILD_TESTS:-OFF}" "$jobs" "${targets[*]}" "$@" ||
    { echo "build_time: the $name build failed (see: cmake --build $dir)" >&2; exit 1; }
  awk '{ printf "%.0f %.0f\n", $1, $2 + $3 }' "$work/$name.time"
}

echo "clean build of ${targets[*]} (${BUILD_TYPE:-Release}, $jobs jobs, no compiler cache) on $(nproc) CPUs" >&2
printf '%-22s %10s %10s %10s\n' build wall_s cpu_s goal_s
read -r wall cpu < <(timed_build unity)
printf '%-22s %10s %10s %10s\n' unity "$wall" "$cpu" "$goal_s"
if [ $compare -eq 1 ]; then
  read -r wall cpu < <(timed_build file-by-file -DDFBENCH_UNITY=OFF)
  printf '%-22s %10s %10s %10s\n' file-by-file "$wall" "$cpu" -
fi
