#!/bin/bash
# stable-rule.sh - how repeat = stable's rules for an "apart" verdict
# (stable_rule = obrien-fleming, pocock, bonferroni; analysis/rank.h
# "Settled") trade wrong verdicts against rounds, on the fixture jitter
# (tests/fixtures/workloads/jitter: 10 ms x FACTOR% x (1 + 4% normal
# noise), ranked by its drawn value, so the machine's load does not enter).
#
# Two pairs of configurations:
#   tie   a and b draw from one distribution (FACTOR 100 both): any
#         settled "apart" is wrong
#   diff  b is 5% slower (FACTOR 105): settled "apart" is right
# Two ways, both with the same binary:
#   real    one repeat = stable study per seed and rule (each study draws
#           its own samples: the rules do not see the same data)
#   replay  one study of 30 fixed rounds per seed, then for every rule the
#           report of its first n rounds (n = 5..30, the later rounds
#           deleted from a copy, the stable facts of a default study put
#           in): the study stops at the first n with nothing fragile, so
#           every rule is judged on the same samples (paired)
# Prints per way, pair and rule: settled as a tie, settled apart, not
# settled at 30 rounds, the rounds of the settled ones (median, range),
# the median rounds of all (a study not settled ran 30) and, for the ties,
# the median band 95% of the resamples fell within when it stopped (JSON
# tie_within) with the rounds a tie would need to settle at +-1% by it
# (rounds x (band / 1%)^2: the band narrows as 1 / sqrt(rounds)).  Then
# the new rule against the old side by side (obrien-fleming, the default
# since session 6, against bonferroni, the rule before), with ratios.
# Asserts nothing.
#
#   bench/stable-rule.sh [real|replay|both]   (default both)
#   TIE_SEEDS=30 DIFF_SEEDS=30 (the seeds 1..N and 101..100+N)
#   RULES="obrien-fleming pocock bonferroni"
#   FLAGSCOPE=build/flagscope
# About 20 minutes on 2 cores shared with other work, with the defaults
# (each study is a few seconds; the replay makes 26 reports per rule).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
fs=${FLAGSCOPE:-$src/build/flagscope}
ways=${1:-both}
tie_seeds=${TIE_SEEDS:-30}
diff_seeds=${DIFF_SEEDS:-30}
read -r -a rules <<< "${RULES:-obrien-fleming pocock bonferroni}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir workloads
cp -r "$src/tests/fixtures/workloads/jitter" workloads/
export FLAGSCOPE_CACHE=$tmp/cache

study() { # NAME FACTOR-OF-b EXTRA-LINE
	printf '[study]\nname = %s\nworkloads = jitter\nmetric = drawn\nmeters = rusage\n' "$1"
	printf 'baseline = a\n%s\n[axis opt]\na = -O2 -DFACTOR=100\nb = -O1 -DFACTOR=%s\n' "$3" "$2"
}

real() { # PAIR FACTOR SEED
	local rule
	for rule in "${rules[@]}"; do
		study "$1" "$2" "stable_rule = $rule" > "$1.study"
		JITTER_SEED=$3 "$fs" run "$1.study" --db "r-$1-$rule-$3.db" -f json -q \
			> "real $1 $rule $3.json" 2> /dev/null || true
	done
}

replay() { # PAIR FACTOR SEED
	study "$1" "$2" "repeat = 30" > "$1.study"
	JITTER_SEED=$3 "$fs" run "$1.study" --db "p-$1-$3.db" -q > /dev/null 2>&1 || true
	python3 - "$fs" "p-$1-$3.db" "$1" "$3" "${rules[@]}" <<'P'
import json, shutil, sqlite3, subprocess, sys
fs, full, pair, seed, rules = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
stopped = set()
for n in range(5, 31):
    shutil.copy(full, "cut.db")
    db = sqlite3.connect("cut.db")
    for t in ("runs", "samples"):
        db.execute("delete from %s where rep > ?" % t, (n,))
    for rule in (r for r in rules if r not in stopped):
        for k, v in (("stable_looks", "26"), ("stable_max_repeat", "30"), ("stable_rule", rule)):
            db.execute("insert or replace into facts(study, key, value) values(?, ?, ?)",
                       (pair, k, v))
        db.commit()
        out = subprocess.run([fs, "report", "--db", "cut.db", "-f", "json"],
                             capture_output=True, check=True, text=True).stdout
        open("replay %s %s %s.json" % (pair, rule, seed), "w").write(out)
        if not json.loads(out)["fragile"]:
            stopped.add(rule)
    db.close()
P
}

for way in real replay; do
	[ "$ways" = both ] || [ "$ways" = "$way" ] || continue
	for s in $(seq 1 "$tie_seeds"); do $way tie 100 "$s"; done
	for s in $(seq 101 $((100 + diff_seeds))); do $way diff 105 "$s"; done
done
# each study's last report (way pair rule seed.json): where it stopped
python3 - ./*.json <<'P'
import collections, json, os, statistics, sys
got = collections.defaultdict(list)
for path in sys.argv[1:]:
    way, pair, rule, seed = os.path.basename(path)[:-5].split()
    d = json.load(open(path))
    c = {x["label"]: x for x in d["configs"]}
    n = min(w["n"] for x in c.values() for w in x["workloads"])
    v = "unsettled" if d["fragile"] else ("tie" if c["a"]["rank"] == c["b"]["rank"] else "apart")
    within = [x.get("tie_within") for x in c.values() if x.get("tie_within") is not None]
    print("#", way, pair, rule, seed, v, n, "within %.4f" % within[0] if within else "")
    got[way, pair, rule].append((v, n, within[0] if within else None))
print("%-7s %-5s %-15s %5s %6s %10s  %-22s %-13s %s" % (
    "way", "pair", "rule", "tie", "apart", "unsettled", "rounds of the settled", "rounds of all",
    "tie band at the stop (median), rounds for +-1%"))
summary = {}
for (way, pair, rule), v in sorted(got.items()):
    count = collections.Counter(x for x, _, _ in v)
    n = sorted(k for x, k, _ in v if x != "unsettled")
    rounds = "%g (%d-%d)" % (statistics.median(n), n[0], n[-1]) if n else "-"
    every = statistics.median(k for _, k, _ in v)
    bands = [(w, k) for x, k, w in v if w is not None and x == "unsettled"]
    band = "+-%.2f%%, about %.0f" % (100 * statistics.median(w for w, _ in bands),
                                    statistics.median(k * (w / 0.01) ** 2 for w, k in bands)) \
        if bands and pair == "tie" else ""
    print("%-7s %-5s %-15s %5d %6d %10d  %-22s %-13g %s" % (
        way, pair, rule, count["tie"], count["apart"], count["unsettled"], rounds, every, band))
    summary[way, pair, rule] = (count, every, len(v))
new, old = "obrien-fleming", "bonferroni"
def ratio(a, b):
    return "%.2f" % (a / b) if b else "-"
for way in sorted({w for w, _, _ in summary}):
    if (way, "tie", new) not in summary and (way, "diff", new) not in summary:
        continue
    print("\n%s: %s (new) against %s (old)" % (way, new, old))
    for pair in ("tie", "diff"):
        if (way, pair, new) not in summary or (way, pair, old) not in summary:
            continue
        (cn, rn, sn), (co, ro, so) = summary[way, pair, new], summary[way, pair, old]
        if pair == "tie":
            print("  true tie, %d seeds: settled tie %d vs %d, wrongly apart %d vs %d (%s), "
                  "not settled %d vs %d" % (sn, cn["tie"], co["tie"], cn["apart"], co["apart"],
                  ratio(cn["apart"], co["apart"]), cn["unsettled"], co["unsettled"]))
        else:
            print("  true 5%% difference, %d seeds: settled apart %d vs %d (%s), median rounds "
                  "%g vs %g (%s), not settled %d vs %d" % (sn, cn["apart"], co["apart"],
                  ratio(cn["apart"], co["apart"]), rn, ro, ratio(rn, ro), cn["unsettled"],
                  co["unsettled"]))
P
