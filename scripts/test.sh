#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit, golden and end-to-end against
# real redis-server and memcached processes that the tests start on free ports).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests --arm64
scripts/build.sh
# The aarch64 client build beside build/dfbench, so that its test under qemu always runs here.
scripts/build-arm64.sh build >/dev/null
# No test's AWS credential lookup reaches the instance metadata address off this machine.
export AWS_EC2_METADATA_DISABLED=true
# Tests that share the multi-host test bed hold a ctest resource lock, so they never overlap.
ctest --test-dir build --no-tests=error --output-on-failure --timeout 900 -j"$(nproc)" "$@"
