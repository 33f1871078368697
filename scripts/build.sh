#!/usr/bin/env bash
# Configures and builds dfbench into build/ (Release, warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDFBENCH_WERROR=ON "$@" >/dev/null
cmake --build build -j"$(nproc)" >&2  # stdout stays for the quickstart's payload
