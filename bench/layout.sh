#!/bin/bash
# layout.sh - how much layout alone moves a program's time on this machine
# (issue 27): workloads/alias4k, one binary, run under `setarch -R` (ASLR
# off) with the environment padded by 0..4095 bytes in 32 steps, so only
# the stack's place relative to the global array changes; then alignment-
# only builds (-falign-functions / -falign-loops variants) at one fixed
# environment, and the same binary with ASLR on.  Each point is the median
# CPU time (user+sys, from the kernel's rusage) of REPEAT runs, alternated
# across points so drift lands on all alike.  Printed as ratios to the
# fastest point; nothing is asserted.
# usage: bench/layout.sh [REPEAT] [REPS]   (defaults 5 and 100000)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
repeat=${1:-5}
reps=${2:-100000}
T=$(mktemp -d /tmp/flagscope-layout.XXXXXX)
trap 'rm -rf "$T"' EXIT
command -v setarch >/dev/null || { echo "SKIP: no setarch (util-linux)"; exit 77; }
if ! setarch -R true 2>/dev/null; then
	echo "SKIP: setarch -R (ADDR_NO_RANDOMIZE) is refused here"
	exit 77
fi
cc=${CC:-gcc}
for v in O2 fa16 fa64 fl32 fl64; do
	case $v in
	O2) f= ;;
	fa16) f=-falign-functions=16 ;;
	fa64) f=-falign-functions=64 ;;
	fl32) f=-falign-loops=32 ;;
	fl64) f=-falign-loops=64 ;;
	esac
	# shellcheck disable=SC2086
	$cc -O2 $f -o "$T/alias4k-$v" "$src/workloads/alias4k/alias4k.c"
done
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'); $cc $($cc -dumpversion); load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$T" "$repeat" "$reps" <<'P'
import os, re, resource, statistics, subprocess, sys
T, repeat, reps = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def run(binary, pad, aslr):
    env = {"PATH": "/usr/bin:/bin", "PAD": "x" * pad}
    cmd = ([] if aslr else ["setarch", "-R"]) + [binary, reps]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    delta = int(re.search(r"delta (\d+)", p.stderr).group(1))
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), delta, p.stdout

def table(title, points):
    times = {k: [] for k in points}
    deltas, outs = {}, set()
    for _ in range(repeat):
        for k, (binary, pad, aslr) in points.items():
            t, d, out = run(binary, pad, aslr)
            times[k].append(t)
            deltas.setdefault(k, set()).add(d)
            outs.add(out)
    med = {k: statistics.median(v) for k, v in times.items()}
    best = min(med.values())
    print(f"\n{title}")
    print(f"{'point':>14} {'delta mod 4096':>16} {'median s':>9} {'ratio':>6} {'spread':>7}")
    for k in points:
        v = times[k]
        d = deltas[k]
        ds = str(next(iter(d))) if len(d) == 1 else f"{len(d)} values"
        print(f"{k:>14} {ds:>16} {med[k]:9.3f} {med[k]/best:6.3f} {(max(v)-min(v))/med[k]:7.3f}")
    print(f"slowest/fastest median: {max(med.values())/best:.3f}; outputs identical: {len(outs) == 1}")
    return med

b = os.path.join(T, "alias4k-O2")
table("environment padding, ASLR off, one binary (gcc -O2)",
      {f"pad {p}": (b, p, False) for p in range(0, 4096, 128)})
table("alignment-only builds, ASLR off, same environment",
      {v: (os.path.join(T, "alias4k-" + v), 0, False) for v in ("O2", "fa16", "fa64", "fl32", "fl64")})
table("one binary, ASLR on (every run a new stack place)",
      {"aslr on": (b, 0, True), "aslr off": (b, 0, False)})
P
