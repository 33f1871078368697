#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit, golden and end-to-end against
# real redis-server and memcached processes that the tests start on free ports).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure --timeout 900 "$@"
