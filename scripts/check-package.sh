#!/usr/bin/env bash
# Builds the Debian package, installs it with apt-get as a user would, checks that the binary,
# its help, the man page and the bash completion work from their system places, and removes it.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(scripts/package.sh)
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
if dpkg-query -W -f='${Status}' dfbench 2>/dev/null | grep -q 'install ok installed'; then
  echo "check-package: a dfbench package is already installed here; not touching it" >&2
  exit 1
fi
trap '"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q dfbench >/dev/null' EXIT
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$deb" >/dev/null

fail() { echo "check-package: $*" >&2; exit 1; }
[ "$(command -v dfbench)" = /usr/bin/dfbench ] || fail "dfbench is not /usr/bin/dfbench"
/usr/bin/dfbench version | grep -q '^dfbench v' || fail "dfbench version printed no version"
/usr/bin/dfbench help run | grep -q -- '--memtier-requests' || fail "dfbench help run lacks its flags"
man -P cat dfbench 2>/dev/null | grep -q 'run-replication' || fail "man dfbench lacks the commands"
words=$(bash -c 'source /usr/share/bash-completion/completions/dfbench
  COMP_WORDS=(dfbench run-m); COMP_CWORD=1; _dfbench; echo "${COMPREPLY[*]}"')
[ "$words" = run-memory ] || fail "bash completion of 'dfbench run-m' gave '$words'"
[ -s /usr/share/zsh/vendor-completions/_dfbench ] || fail "no zsh completion"
[ -s /usr/share/fish/vendor_completions.d/dfbench.fish ] || fail "no fish completion"
[ -s /usr/share/doc/dfbench/README.md ] || fail "no README under /usr/share/doc/dfbench"
# The README links into docs/: its pages must land beside it.
[ -s /usr/share/doc/dfbench/docs/commands/run.md ] || fail "no command pages under /usr/share/doc/dfbench/docs"
echo "check-package: $deb installs; version, help, man page and completions work" >&2
