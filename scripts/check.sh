#!/usr/bin/env bash
# The checks CI runs besides the tests: formatting, the layering of includes, clang-tidy, the
# Debian package, the tests under ASan+UBSan, and a short fuzzing run of the protocol parsers.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== clang-format"
files=$(git ls-files '*.cc' '*.h')
clang-format --dry-run --Werror $files

echo "== layering (an include may point only to a layer the CMake files link)"
python3 scripts/check-layers.py

echo "== clang-tidy (production code under src/)"
scripts/check-tidy.sh  # configures its own file-by-file build-tidy/ (nothing is built)

echo "== Debian package (installed with apt-get, used, removed)"
scripts/check-package.sh

echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DDFBENCH_WERROR=ON \
  -DDFBENCH_SANITIZE=ON -DDFBENCH_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
scripts/build-arm64.sh build-asan >/dev/null  # the aarch64 client's tests run here too
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 AWS_EC2_METADATA_DISABLED=true \
  ctest --test-dir build-asan --output-on-failure --timeout 900 -j"$(nproc)"

echo "== fuzzing (bounded)"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DDFBENCH_BUILD_FUZZ=ON \
  -DDFBENCH_BUILD_TESTS=OFF -DDFBENCH_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzzers
for f in build-fuzz/fuzz/*_fuzz; do
  [ -x "$f" ] || continue
  work=$(mktemp -d)  # new inputs land here; the committed seeds are read-only
  "$f" -max_total_time=60 -rss_limit_mb=2048 "$work" fuzz/corpus/* 2>&1 | tail -n 3
  rm -rf "$work"
done
