#!/usr/bin/env bash
# Builds dfbench's client build for Linux aarch64 (what an arm64 client host runs: `loadgen`, and
# `version` as setup's check) with Debian's cross compiler, statically linked, and puts it beside
# the dfbench binary as dfbench-linux-aarch64, where setup and quickstart look for it.
#   scripts/build-arm64.sh [DIR]   DIR: where dfbench is (default build/)
set -euo pipefail
cd "$(dirname "$0")/.."
out_dir=${1:-build}
if ! command -v aarch64-linux-gnu-g++ >/dev/null; then
  echo "build-arm64: aarch64-linux-gnu-g++ is missing: apt-get install g++-aarch64-linux-gnu" \
    "(scripts/install-deps.sh --arm64 installs it)" >&2
  exit 5
fi
cross_dir=build/cross-aarch64
cmake -S . -B "$cross_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDFBENCH_WERROR=ON \
  -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DDFBENCH_CLIENT_ONLY=ON \
  -DDFBENCH_BUILD_TESTS=OFF -DDFBENCH_BUILD_BENCH=OFF >/dev/null
cmake --build "$cross_dir" -j"$(nproc)" --target dfbench-client >&2
mkdir -p "$out_dir"
# Copied under a temporary name, then renamed: setup never uploads half a file.
cp "$cross_dir/dfbench-client" "$out_dir/dfbench-linux-aarch64.tmp"
mv "$out_dir/dfbench-linux-aarch64.tmp" "$out_dir/dfbench-linux-aarch64"
echo "$out_dir/dfbench-linux-aarch64"
