#!/usr/bin/env bash
# Configures and builds dfbench into build/ (Release, warnings as errors).
#   scripts/build.sh             everything: dfbench, its tests and the bench programs
#   scripts/build.sh --dfbench   the dfbench binary only (what the quickstart runs)
# Other arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
parts=(-DDFBENCH_BUILD_TESTS=ON -DDFBENCH_BUILD_BENCH=ON)
if [ "${1:-}" = "--dfbench" ]; then
  shift
  targets=(--target dfbench)
  # A first configure leaves the tests out (their packages may be missing); a build directory
  # configured already keeps its choice, so a developer's tests are not dropped.
  parts=()
  [ -f build/CMakeCache.txt ] || parts=(-DDFBENCH_BUILD_TESTS=OFF -DDFBENCH_BUILD_BENCH=OFF)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDFBENCH_WERROR=ON "${parts[@]}" "$@" >/dev/null
cmake --build build -j"$(nproc)" "${targets[@]}" >&2  # stdout stays for the quickstart's payload
