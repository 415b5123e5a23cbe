#!/bin/bash
# memory-meter.sh - what the memory meter (ptrace stop at exit + /proc
# reads) costs: the median wall time of the same builds measured with
# meters "rusage" and "rusage memory", alternated 3 times, printed as ratios.
# usage: bench/memory-meter.sh [BUILD_DIR]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$src/build}/flagscope
T=$(mktemp -d /tmp/flagscope-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home/workloads"
cp -r "$src/tests/fixtures/workloads/tiny" "$src/workloads/memtouch" "$T/home/workloads/"
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
