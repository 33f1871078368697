#!/usr/bin/env bash
# Installs what is missing, builds, and benchmarks the engines of this machine (fetching the
# missing ones where there is network: dfbench quickstart). Extra arguments go to quickstart,
# e.g. --engines redis,memcached.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec ./build/dfbench quickstart "$@"
