#!/usr/bin/env bash
# clang-tidy (the repository's .clang-tidy) over src/**/*.cc:
#   scripts/check-tidy.sh [file.cc ...]              with build-tidy/, configured here
#   scripts/check-tidy.sh BUILD_DIR [file.cc ...]    with BUILD_DIR's compile commands
# clang-tidy needs one compile command per file, which a unity build's batches do not give:
# build-tidy/ is configured file by file (-DDFBENCH_UNITY=OFF) and never built. Default files:
# every .cc under src/ but the tests, which keeps the step within a few minutes on two CPUs;
# name test files to check them too.
#
# clang-tidy 14 cannot parse some third-party headers (fmt) against g++ 12's libstdc++: such a
# file fails with clang-diagnostic-error located outside src/ only, and says nothing about our
# code, so it is skipped and counted. Any other finding, in a file of src/, fails the check.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ] && [ -d "$1" ]; then
  build_dir=$1
  shift
else
  build_dir=build-tidy
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDFBENCH_WERROR=ON \
    -DDFBENCH_UNITY=OFF >/dev/null
fi
[ -f "$build_dir/compile_commands.json" ] || {
  echo "check-tidy: no $build_dir/compile_commands.json (configure it with cmake first)" >&2
  exit 2
}

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# One log per file: its clang-tidy output, then its exit code on the last line.
if [ $# -gt 0 ]; then printf '%s\n' "$@"; else git ls-files 'src/*.cc' ':!:src/*_test.cc'; fi | xargs -P"$(nproc)" -I{} sh -c \
  'log="$1/$(echo "$2" | tr / _).log"; clang-tidy -p "$3" --quiet "$2" >"$log" 2>&1; echo "rc $?" >>"$log"' \
  _ "$logs" {} "$build_dir"

python3 - "$logs" "$PWD" <<'EOF'
import pathlib, re, sys

logs, root = pathlib.Path(sys.argv[1]), sys.argv[2] + "/"
diag = re.compile(r"^(/\S+?):(\d+):(\d+): (?:error|warning): (.*) \[([^\]]+)\]$")
checked, skipped, findings = 0, [], set()
for log in sorted(logs.iterdir()):
    lines = log.read_text(errors="replace").splitlines()
    failed = lines[-1] != "rc 0"
    ours, parse_errors_elsewhere = [], False
    for line in lines:
        m = diag.match(line)
        if not m:
            continue
        path, line_no, col, message, checks = m.groups()
        in_src = path.startswith(root + "src/")
        if "clang-diagnostic-error" in checks.split(","):
            if in_src:
                ours.append(f"{path[len(root):]}:{line_no}:{col}: {message} [{checks}]")
            else:
                parse_errors_elsewhere = True
        elif in_src:
            ours.append(f"{path[len(root):]}:{line_no}:{col}: {message} [{checks}]")
    if failed and not ours and parse_errors_elsewhere:
        skipped.append(log.name)
        continue
    checked += 1
    findings.update(ours)
    if failed and not ours:  # clang-tidy failed without a finding we can name: show its words
        findings.add(f"{log.name}: clang-tidy failed: " + " | ".join(lines[-5:]))
for f in sorted(findings):
    print(f)
print(f"clang-tidy: {checked} file(s) checked, {len(skipped)} skipped (unparsable third-party "
      f"or system headers), {len(findings)} finding(s)")
sys.exit(1 if findings else 0)
EOF
