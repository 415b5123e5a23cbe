#!/bin/bash
# bench/search.sh [NFLAGS [SEEDS]] - how many evaluations each search
# strategy needs to come within 1% of the optimum of a small flag space,
# measured exhaustively with a deterministic metric (instructions executed,
# valgrind cachegrind), median over seeds; and whether the best strategy
# beats random search at the same budget.
#
# The workloads are the bundled nbody and sortmem at a reduced size (a
# copy in the bench folder with smaller arguments; their reference output
# is the baseline's, as for any study).  The space is the first NFLAGS
# (default 10: 1024 flag sets) of ten flags that change their instruction
# counts.  Every flag set is built, verified, run and validated through
# `flagscope run` once, by the exhaustive pass; the strategies then replay
# against the evaluation cache, so each of their evaluations is a cache
# hit and the count is exactly how many flag sets they asked for.
#
# NFLAGS=10 takes about half an hour on 2 cores (the exhaustive pass);
# NFLAGS=6 about two minutes.  The database in $BENCH_DIR survives, so a
# rerun (or an interrupted run) reuses everything measured.
#
# BENCH_REAL=1 also searches lame and gzip (Debian sources, needs deb-src)
# with the ensemble for $BENCH_REAL_BUDGET evaluations (default 24) and
# prints the confirmed gain of the found set over -O3.
#
# Env: FLAGSCOPE_BIN (default build/flagscope), BENCH_DIR
# (default /tmp/flagscope-bench-search).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${FLAGSCOPE_BIN:-$ROOT/build/flagscope}
N=${1:-10}
SEEDS=${2:-11}
W=${BENCH_DIR:-/tmp/flagscope-bench-search}
FLAGS=(-funroll-loops -fpeel-loops -ftracer -fno-tree-pre -fno-if-conversion
	-fno-strict-aliasing -fno-ivopts -fno-tree-vrp -fno-inline-small-functions -ftree-vectorize)
[ -x "$BIN" ] || { echo "bench/search.sh: $BIN not built (set FLAGSCOPE_BIN)" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "bench/search.sh: needs valgrind" >&2; exit 2; }
[ "$N" -ge 2 ] && [ "$N" -le ${#FLAGS[@]} ] || { echo "NFLAGS must be 2..${#FLAGS[@]}" >&2; exit 2; }

mkdir -p "$W/home/workloads"
cd "$W"
for w in nbody:20000 sortmem:16; do
	name=${w%%:*} arg=${w##*:}
	rm -rf "home/workloads/$name"
	cp -r "$ROOT/workloads/$name" home/workloads/
	# smaller input: the full-size expected output no longer applies
	sed -i -e "s/^args = $name .*/args = $name $arg/" -e '/^expect = /d' \
		"home/workloads/$name/recipe.ini"
done
export FLAGSCOPE_HOME=$W/home FLAGSCOPE_CACHE=$W/cache
cat > bench.study <<'S'
; bench/search.sh: nbody and sortmem at reduced size against -O2
[study]
name = bench-search
workloads = nbody sortmem
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
S
printf '[space]\nflags = %s\n' "${FLAGS[*]:0:$N}" > "space$N.space"
SIZE=$((1 << N))
common=(bench.study --space "space$N.space" --metric insns --db bench.db --no-minimise
	--confirm-repeat 0 --format json -q)

start=$(date +%s)
"$BIN" search "${common[@]}" --strategy exhaustive --budget "$SIZE" --batch 16 > "exhaustive$N.json"
echo "exhaustive pass: $SIZE flag sets in $(( $(date +%s) - start )) s (or fewer when cached)" >&2
for s in ce ga random ensemble; do
	for seed in $(seq "$SEEDS"); do
		"$BIN" search "${common[@]}" --strategy "$s" --seed "$seed" --budget "$SIZE" \
			> "$s-$N-$seed.json"
	done
done

python3 - "$N" "$SEEDS" <<'P'
import json, statistics, sys
n, seeds = int(sys.argv[1]), int(sys.argv[2])
size = 1 << n
ex = json.load(open(f"exhaustive{n}.json"))
objs = [t["objective"] for t in ex["trace"] if t["objective"] is not None]
opt = min(objs + [1.0])  # the baseline itself is a point of the space too
broken = sum(1 for t in ex["trace"] if t["objective"] is None)
best = min(ex["trace"], key=lambda t: t["objective"] if t["objective"] is not None else 9)
print(f"space: {n} flags, {size} flag sets ({ex['evals']} measured exhaustively, {broken} broken)")
print(f"optimum: {opt:.4f} of -O2's instructions: {best['flags'] or '(-O2)'}")
print(f"target: within 1% of it, i.e. objective <= {opt * 1.01:.4f}\n")

def needed(trace, target):
    """evaluations until the best so far is at or below target"""
    b = 1.0  # the baseline is free
    if b <= target:
        return 0
    for i, t in enumerate(trace):
        if t["objective"] is not None:
            b = min(b, t["objective"])
        if b <= target:
            return i + 1
    return None

def best_at(trace, k):
    b = 1.0
    for t in trace[:k]:
        if t["objective"] is not None:
            b = min(b, t["objective"])
    return b

runs = {s: [json.load(open(f"{s}-{n}-{seed}.json")) for seed in range(1, seeds + 1)]
        for s in ("ce", "ga", "random", "ensemble")}
print(f"evaluations needed, median over {seeds} seeds (a seed that never gets there counts as "
      f"the whole space):")
print(f"{'strategy':10} {'within 1%':>10} {'% space':>8} {'reached':>8}   {'optimum':>8} "
      f"{'% space':>8} {'reached':>8}")
med = {}
for s, rs in runs.items():
    row = []
    for target in (opt * 1.01, opt * (1 + 1e-9)):
        ks = [needed(r["trace"], target) for r in rs]
        m = statistics.median([k if k is not None else size for k in ks])
        row.append((m, sum(k is not None for k in ks)))
    med[s] = row[0][0]
    print(f"{s:10} {row[0][0]:10.1f} {100 * row[0][0] / size:7.1f}% {row[0][1]:>4}/{len(rs):<3}  "
          f"{row[1][0]:8.1f} {100 * row[1][0] / size:7.1f}% {row[1][1]:>4}/{len(rs):<3}")
if len({tuple(t["flags"] for t in r["trace"]) for r in runs["ce"]}) == 1:
    print("(ce uses no randomness: every seed made the same search)")
bestname = min((s for s in med if s != "random"), key=lambda s: med[s])
print(f"\nbest strategy (within 1%): {bestname}, {100 * med[bestname] / size:.1f}% of the space "
      f"(goal: at most 15%)")
print("median best objective at equal budgets (lower is better):")
budgets = sorted({max(1, int(med[bestname])), max(1, size // 20), max(1, size // 10)})
print(f"{'strategy':10} " + " ".join(f"{'@' + str(k):>8}" for k in budgets))
for s in runs:
    print(f"{s:10} " + " ".join(f"{statistics.median(best_at(r['trace'], k) for r in runs[s]):8.4f}"
                               for k in budgets))
P

if [ "${BENCH_REAL:-0}" = 1 ]; then
	budget=${BENCH_REAL_BUDGET:-24}
	for w in lame gzip; do
		cat > "$w.study" <<S
[study]
name = bench-search-$w
workloads = $w
repeat = 3
baseline = O2
[axis opt]
O2 = -O2
S
		env -u FLAGSCOPE_HOME "$BIN" search "$w.study" --strategy ensemble --budget "$budget" \
			--metric insns --confirm-repeat 5 --db "$w.db" --format json -q > "$w.json"
		python3 - "$w" <<'P'
import json, sys
r = json.load(open(sys.argv[1] + ".json"))
b, m = r["best"], r["minimal"] or r["best"]
print(f"\n{sys.argv[1]}: {r['evals']} evaluations; best: instructions {b['objective']:.4f} of -O2 "
      f"with '{b['flags']}'; minimal (within {100 * (r['minimal'] or {}).get('tolerance', 0):.1f}%): "
      f"{m['objective']:.4f} with '{m['flags']}'")
c = r["confirm"]
if c and c["status"] == "ok":
    for a in c["against"]:
        print(f"  vs {a['level']}: time {a['time_ratio']:.4f} [{a['ci'][0]:.4f}, {a['ci'][1]:.4f}] "
              f"{a['verdict']}, instructions {a['insns_ratio']:.4f}")
else:
    print("  confirmation:", c and c["status"], c and c["detail"])
P
	done
fi
