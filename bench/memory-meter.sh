#!/bin/bash
# memory-meter.sh - what the memory meter (ptrace stop at exit + /proc
# reads) costs: the median wall time of the same builds measured with
# meters "rusage" and "rusage memory", alternated 3 times, printed as ratios;
# then the same for sysbench's process tests (execl, spawn, shell1), whose
# traced program execs or forks inside its own timed loop, compared on the
# time each reports itself (the metric the musl-vs-glibc study ranks).
# usage: bench/memory-meter.sh [BUILD_DIR]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$src/build}/flagscope
T=$(mktemp -d /tmp/flagscope-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home/workloads"
cp -r "$src/tests/fixtures/workloads/tiny" "$src/workloads/memtouch" "$src/workloads/sysbench" "$T/home/workloads/"
export FLAGSCOPE_HOME=$T/home FLAGSCOPE_CACHE=$T/cache
cd "$T"
printf '[study]\nworkloads = tiny memtouch\nrepeat = 40\n[axis opt]\nO2 = -O2\n' > m.study
for i in 1 2 3; do
	"$bin" run m.study --db plain$i.db --meters rusage -q > /dev/null
	"$bin" run m.study --db mem$i.db --meters "rusage memory" -q > /dev/null
done
python3 - <<'P'
import sqlite3, statistics
def walls(prefix, w):
    v = []
    for i in (1, 2, 3):
        v += [r[0] for r in sqlite3.connect(f"{prefix}{i}.db").execute(
            "select value from samples where metric='wall' and rep>=1 and workload=?", (w,))]
    return statistics.median(v)
for w in ("tiny", "memtouch"):
    a, b = walls("plain", w), walls("mem", w)
    print(f"{w:9s} median wall: rusage {a*1000:.3f} ms, rusage+memory {b*1000:.3f} ms, "
          f"ratio {b/a:.3f}, difference {(b-a)*1000:+.3f} ms per run")
P

printf '[study]\nworkloads = sysbench\nrepeat = 3\n[axis opt]\nO2 = -O2\n' > s.study
for i in 1 2 3; do
	"$bin" run s.study --db splain$i.db --meters rusage -q > /dev/null
	"$bin" run s.study --db smem$i.db --meters "rusage memory" -q > /dev/null
done
python3 - <<'P'
import sqlite3, statistics
def times(prefix, run):
    v = []
    for i in (1, 2, 3):
        v += [r[0] for r in sqlite3.connect(f"{prefix}{i}.db").execute(
            "select value from samples where metric='time' and rep>=1 and run=?", (run,))]
    return statistics.median(v)
for run in ("execl", "spawn", "shell1", "syscall"):
    a, b = times("splain", run), times("smem", run)
    print(f"sysbench/{run:8s} median own time: rusage {a:.4f} s, rusage+memory {b:.4f} s, ratio {b/a:.3f}")
P
