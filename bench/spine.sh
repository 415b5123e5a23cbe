#!/bin/bash
# spine.sh - the spine's speed goals, printed as ratios from one run:
#  1. harness overhead per measured run against a bare spawn+wait of the same
#     binary (goal < 1 ms or 1%)
#  2. parallel build speed-up of -j2 over -j1 on an 8-configuration matrix (goal >= 1.7x)
#  3. builds done by a second identical run (goal 0)
# usage: bench/spine.sh [BUILD_DIR]   (default build/)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$src/build}/flagscope
T=$(mktemp -d /tmp/flagscope-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home/workloads" "$T/home/flagsets"
cp -r "$src/tests/fixtures/workloads/tiny" "$T/home/workloads/"
for w in crc32 nbody sortmem; do cp -r "$src/workloads/$w" "$T/home/workloads/"; done
export FLAGSCOPE_HOME=$T/home FLAGSCOPE_CACHE=$T/cache
cd "$T"
now() { date +%s.%N; }

# 1. overhead: the same study at repeat 1 and repeat 201; the difference in
# elapsed time minus the difference in measured run time, per extra run
printf '[study]\nworkloads = tiny\nmeters = rusage\nrepeat = 1\n[axis opt]\nO2 = -O2\n' > o1.study
sed 's/repeat = 1/repeat = 201/' o1.study > o201.study
"$bin" run o1.study --db warm.db -q > /dev/null   # build once
t0=$(now); "$bin" run o1.study --db a.db -q > /dev/null; t1=$(now)
"$bin" run o201.study --db b.db -q > /dev/null; t2=$(now)
# the bare run: the same binary with the same argument, posix_spawn + wait
# from one process, 200 times, no measuring at all
tiny=$(find "$FLAGSCOPE_CACHE" -type f -name tiny -perm -u+x | head -n 1)
bare=$(cd "$T" && python3 - "$tiny" <<'P'
import os, sys, time
prog = sys.argv[1]
null = os.open(os.devnull, os.O_WRONLY)
acts = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
t = time.monotonic()
for _ in range(200):
    os.waitpid(os.posix_spawn(prog, [prog, "300000"], {}, file_actions=acts), 0)
print((time.monotonic() - t) / 200)
P
)
python3 - "$t0" "$t1" "$t2" "$bare" <<'P'
import sqlite3, sys
t0, t1, t2, bare = map(float, sys.argv[1:])
wa = sqlite3.connect("a.db").execute("select sum(value) from samples where metric='wall'").fetchone()[0]
wb = sqlite3.connect("b.db").execute("select sum(value) from samples where metric='wall'").fetchone()[0]
med = sqlite3.connect("b.db").execute("select value from samples where metric='wall' and rep>=1 order by value limit 1 offset 100").fetchone()[0]
extra = ((t2 - t1) - (t1 - t0) - (wb - wa)) / 200
per_run = ((t2 - t1) - (t1 - t0)) / 200
print(f"1. harness overhead per measured run: {extra*1000:.2f} ms beyond the measured wall time; "
      f"against a bare spawn+wait of the same binary: {(per_run - bare)*1000:.2f} ms "
      f"({per_run*1000:.2f} ms per run through flagscope, {bare*1000:.2f} ms bare, "
      f"ratio {per_run/bare:.2f}x; median measured run {med*1000:.2f} ms; goal < 1 ms or 1%)")
P

# 2. parallel builds: 8 configurations x 3 bundled workloads, cold cache
cat > eight.study <<'S'
[study]
workloads = crc32 nbody sortmem
[axis opt]
O0 = -O0
O1 = -O1
O2 = -O2
O3 = -O3
Os = -Os
O2u = -O2 -funroll-loops
O3n = -O3 -march=native
O2g = -O2 -g
S
rm -rf "$FLAGSCOPE_CACHE"; t0=$(now)
"$bin" run eight.study --db j1.db --build-only -j1 -q > /dev/null; t1=$(now)
rm -rf "$FLAGSCOPE_CACHE"; t2=$(now)
"$bin" run eight.study --db j2.db --build-only -j2 -q > /dev/null; t3=$(now)
python3 -c "
j1=$t1-$t0; j2=$t3-$t2
print(f'2. matrix build (24 builds): -j1 {j1:.2f} s, -j2 {j2:.2f} s, speed-up {j1/j2:.2f}x (goal >= 1.7x on 2 cores)')"

# 3. a second identical run builds nothing
out=$("$bin" run eight.study --db j2.db --build-only -j2 -q)
echo "3. second identical run: $out (goal: 0 built)"
