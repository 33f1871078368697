#!/usr/bin/env bash
# Installs what dfbench needs on Debian/Ubuntu. Idempotent: packages already present are
# skipped. Works as root or through sudo.
#   scripts/install-deps.sh            building dfbench and running the quickstart
#   scripts/install-deps.sh --package  also what scripts/package.sh needs
#   scripts/install-deps.sh --tests    also the tests, checks and bench/ scripts (and --package)
#   scripts/install-deps.sh --arm64    also the cross compiler of the aarch64 client build
#                                      (scripts/build-arm64.sh) and qemu to test it
set -euo pipefail

packages=(
  # build
  cmake ninja-build ccache g++ pkg-config git
  # libraries
  libcli11-dev nlohmann-json3-dev libfmt-dev libexpected-dev libssl-dev
  # AWS: HTTPS with SigV4 signing (libcurl) and the Query API's XML replies (pugixml)
  libcurl4-openssl-dev libpugixml-dev
  # histograms from other load generators arrive zlib-compressed
  zlib1g-dev
  # engines and tools the quickstart runs
  redis-server redis-tools memcached procps iproute2 openssh-client util-linux
)
tests=(
  # sanitizers, formatting, lint
  clang libclang-rt-14-dev clang-format clang-tidy
  # test and micro-benchmark libraries
  libgtest-dev libgmock-dev libbenchmark-dev
  # the SSH test bed's hosts; what memtier_benchmark links against (the tests run a release build)
  openssh-server libevent-2.1-7 libevent-openssl-2.1-7
  # the HTML report's browser test (headless)
  chromium
  # reading the packaged man page
  man-db
  # bench/ scripts; certificates for the TLS tests and bench
  time bc python3 openssl
)
# the Debian package: Depends from the linked libraries (dpkg-shlibdeps), the man page's generator
package=(dpkg-dev python3)
for arg in "$@"; do
  case "$arg" in
    --tests) packages+=("${tests[@]}" "${package[@]}") ;;
    --package) packages+=("${package[@]}") ;;
    --arm64) packages+=(g++-aarch64-linux-gnu qemu-user-static) ;;
    *)
      echo "install-deps: unknown argument $arg (only --package, --tests, --arm64)" >&2
      exit 2
      ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}" >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
# Debian starts packaged daemons; dfbench starts its own engines on free ports, so stop these.
for svc in redis-server memcached; do
  if command -v systemctl >/dev/null && systemctl is-active --quiet "$svc" 2>/dev/null; then
    "${sudo[@]}" systemctl stop "$svc" || true
  fi
done
