#!/bin/bash
# stability.sh - does the default study give the same answer twice?
#
# Runs the default study (flagsets/presets/default.study, repeat = stable)
# twice into fresh databases, one after the other, and prints for the two
# results: the Kendall tau between the two orders of the configurations
# (by geometric-mean ratio; 1 = the same order), the rank-group agreement
# (the share of configuration pairs that are in one group in both or
# apart in both, and whether every rank is the same), how many rounds each
# took and the verdicts each left not settled.  Asserts nothing.
#
#   bench/stability.sh                   # build/flagscope, the default study
#   bench/stability.sh my.study          # another study
#   FLAGSCOPE=/usr/bin/flagscope bench/stability.sh
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
fs=${FLAGSCOPE:-$src/build/flagscope}
study=${1:-default}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for i in 1 2; do
	start=$(date +%s)
	"$fs" run "$study" --db "$tmp/run$i.db" --format json -q > "$tmp/run$i.json" || true
	echo "run $i: $(( $(date +%s) - start )) s"
done
python3 - "$tmp/run1.json" "$tmp/run2.json" <<'P'
import itertools, json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ca = {c["label"]: c for c in a["configs"] if c["rank"]}
cb = {c["label"]: c for c in b["configs"] if c["rank"]}
labels = sorted(set(ca) & set(cb))
pairs = list(itertools.combinations(labels, 2))
def sign(x):
    return (x > 0) - (x < 0)
conc = sum(sign(ca[x]["ratio"] - ca[y]["ratio"]) * sign(cb[x]["ratio"] - cb[y]["ratio"])
           for x, y in pairs)
tau = conc / len(pairs) if pairs else float("nan")
same = sum((ca[x]["rank"] == ca[y]["rank"]) == (cb[x]["rank"] == cb[y]["rank"]) for x, y in pairs)
for name, d in (("run 1", a), ("run 2", b)):
    n = max(w["n"] for c in d["configs"] for w in c["workloads"])
    order = sorted((c for c in d["configs"] if c["rank"]), key=lambda c: c["ratio"])
    print("%s: %d repetitions; %s" % (name, n,
          ", ".join("%d %s %.3f" % (c["rank"], c["label"], c["ratio"]) for c in order)))
    for line in d["fragile"]:
        print("  " + line)
print("kendall tau between the two orders: %.2f (%d configurations)" % (tau, len(labels)))
print("rank-group agreement: %d of %d pairs; every rank the same: %s" % (
    same, len(pairs), all(ca[x]["rank"] == cb[x]["rank"] for x in labels)))
P
