#!/usr/bin/env bash
# Builds dfbench and its Debian package: build/package/dfbench_<version>_<arch>.deb (the binary,
# shell completions, man page and docs; Depends from the libraries it links). Prints the path.
#   scripts/package.sh      install with: sudo apt-get install ./build/package/dfbench_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --package
scripts/build.sh --dfbench
cmake --build build --target dfbench_extras >&2
# Setup looks for the aarch64 client build beside dfbench, so the package carries it, fresh.
if command -v aarch64-linux-gnu-g++ >/dev/null; then
  scripts/build-arm64.sh build >/dev/null
else
  rm -f build/dfbench-linux-aarch64
  echo "package: without the aarch64 client build (scripts/install-deps.sh --arm64 adds its compiler)" >&2
fi
rm -f build/package/dfbench_*.deb
(cd build && cpack -G DEB >/dev/null)
ls build/package/dfbench_*.deb
