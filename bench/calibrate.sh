#!/bin/bash
# bench/calibrate.sh [REPEAT] [DIR] - the A/A proof of `flagscope calibrate`
# (issue 27): calibrate this machine with the calibrate preset (crc32,
# nbody, sortmem, alias4k; REPEAT runs a build, default 10), then run a
# separate A/A study: gcc -O2 against five other alignment-only builds of
# it and the baseline's copy (run --noise-floor), REPEAT runs each, on
# the same four workloads: 24 pairs whose true difference is layout and
# noise only.  Prints the calibration table, then how many of the pairs
# the verdict calls significant with the fixed 1% and with the calibrated
# floors (--min-effect auto), pairs whose builds are identical to the
# baseline's (the same runs) left out and counted.  It asserts nothing: a
# rule that holds its level calls at most 5% of them significant.
# Results are kept in DIR (default a fresh folder under /tmp).
set -euo pipefail
repeat=${1:-10}
dir=${2:-$(mktemp -d /tmp/flagscope-calibrate.XXXXXX)}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${FLAGSCOPE_BIN:-$here/build/flagscope}
mkdir -p "$dir"
cd "$dir"
echo "bench/calibrate.sh: results in $dir; $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"

"$bin" calibrate --db r.db --repeat "$repeat" -q

cat >aa.study <<'EOF'
; expect: every configuration ok and none beyond layout noise (A/A)
[study]
name = aa
workloads = crc32 nbody sortmem alias4k
repeat = 10
baseline = O2
meters = rusage
[axis layout]
O2 = -O2
f8 = -O2 -falign-functions=8
f128 = -O2 -falign-functions=128
l16 = -O2 -falign-loops=16
l128 = -O2 -falign-loops=128
j64 = -O2 -falign-jumps=64
EOF
"$bin" run aa.study --db r.db --repeat "$repeat" --noise-floor -q >/dev/null || true
"$bin" report --db r.db --study aa --min-effect 1% --format json >fixed.json
"$bin" report --db r.db --study aa --min-effect auto --format json >auto.json

python3 - fixed.json auto.json <<'P'
import json, sys
def count(path):
    d = json.load(open(path))
    pairs = sig = same = 0
    within = 0
    for c in d["configs"]:
        if c["baseline"]:
            continue
        same_on = set(c.get("identical_on") or []) if c.get("identical_to") else set()
        for w in c["workloads"]:
            if w["ratio"] is None:
                continue
            if w["name"].split("/")[0] in same_on:
                same += 1
                continue
            pairs += 1
            sig += w["verdict"] in ("improved", "regressed")
            within += w.get("layout_noise") is not None
    return pairs, sig, same, within
fp, fs, same, _ = count(sys.argv[1])
ap, asig, _, within = count(sys.argv[2])
print(f"A/A pairs: {fp} (and {same} whose build is identical to the baseline's, left out)")
print(f"significant with the fixed 1%:        {fs} of {fp} = {100 * fs / max(fp, 1):.1f}%")
print(f"significant with the calibrated floor: {asig} of {ap} = {100 * asig / max(ap, 1):.1f}%"
      f" ({within} said to be within layout noise)")
P
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
