#!/bin/bash
# architecture-walk.sh - how long one sample's path is, measured: runs
# `flagscope run` on a one-configuration study of tiny under gdb, stops
# once at each FUNCTION of doc/architecture.md's "One sample's path"
# block, and counts the functions and files of the union of the call
# stacks there (the project's own frames: main -> ... -> each step).
# Prints "N steps reached: F functions in G files", then each file.
# (issue 29 set the path at "about 48 files and 70 functions"; the walk
# is tests/check_architecture_walk.sh's, this counts what lies between.)
# usage: bench/architecture-walk.sh [BUILD_DIR]   (default build/; needs gdb)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$src/build}/flagscope")
command -v gdb > /dev/null || { echo "SKIP: no gdb"; exit 77; }
T=$(mktemp -d /tmp/flagscope-walk.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home/workloads"
cp -r "$src/tests/fixtures/workloads/tiny" "$T/home/workloads/"
export FLAGSCOPE_HOME=$T/home FLAGSCOPE_CACHE=$T/cache ASAN_OPTIONS=detect_leaks=0
cd "$T"
printf '[study]\nworkloads = tiny\nrepeat = 1\n[axis opt]\nO2 = -O2\n' > one.study
awk '/^## One sample.s path/ {s = 1; next} s && /^```/ {if (b) exit; b = 1; next} s && b {print $3}' \
	"$src/doc/architecture.md" | sort -u > steps
{
	printf 'set pagination off\nset confirm off\nset follow-fork-mode parent\n'
	printf 'set detach-on-fork on\nset print frame-arguments none\nset breakpoint pending on\n'
	while read -r fn; do
		printf 'tbreak %s\ncommands\nsilent\necho @@STEP %s\\n\nbt\ncontinue\nend\n' "$fn" "$fn"
	done < steps
	printf 'run run one.study -q --db walk.db\nquit\n'
} > walk.gdb
gdb -batch -x walk.gdb "$bin" > gdb.out 2>&1 || true
python3 - "$src" "$(wc -l < steps)" gdb.out <<'P'
import re, sys
src, want = sys.argv[1].rstrip('/') + '/', int(sys.argv[2])
lines = open(sys.argv[3], errors='replace')
frame = re.compile(r'^#\d+\s+(?:0x[0-9a-f]+ in )?(\S+) .* at (\S+):\d+')
fns, steps, step = set(), set(), None
for line in lines:
    if line.startswith('@@STEP'):
        step = line.split()[1]
        steps.add(step)
        continue
    m = frame.match(line)
    if step and m and m.group(2).startswith(src):
        fns.add((m.group(1), m.group(2)[len(src):]))
files = sorted({f for _, f in fns})
print(f"{len(steps)} of {want} steps reached: {len(fns)} functions in {len(files)} files")
for f in files:
    print(f"  {f}: {', '.join(sorted(n for n, g in fns if g == f))}")
sys.exit(0 if len(steps) == want else 1)
P
