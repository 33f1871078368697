#!/usr/bin/env bash
# Installs what is missing, builds dfbench, and benchmarks the engines of this machine (fetching
# the missing ones where there is network: dfbench quickstart). Extra arguments go to quickstart,
# e.g. --engines redis,memcached. Only what running needs is installed and built; the tests'
# packages and targets are scripts/test.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/install-deps.sh
built=$(date +%s)
scripts/build.sh --dfbench
echo "quickstart.sh: dependencies took $((built - start)) s, the build $(($(date +%s) - built)) s" >&2
exec ./build/dfbench quickstart "$@"
