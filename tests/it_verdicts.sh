#!/bin/bash
# it_verdicts.sh - what repeat = stable and the settledness rule tell the
# user, on the fixtures jitter (controlled noise: a 100, b 106, c and d
# 130) and affinity (the CPUs a run may use).  Expect:
#  1. run --dry-run says what the rounds will be: "repeat stable (5 to 12
#     runs, at most 60 s)" with the study's own caps, "repeat 3" for
#     repeat = 3, "repeat 2" under --repeat 2, "repeat auto (...)";
#  2. report --format csv has the columns versus, p_change, settled in a row,
#     the same as JSON's keys of that configuration, and settled is 0 on
#     exactly the rows of the configurations the text lists as not settled;
#  3. a repeat = stable study in two shards: each shard says once that it
#     judged settledness within itself only (also under -q: a result, not
#     progress); after merge the report judges
#     every verdict over the merged samples (every ranked configuration but
#     the first has a verdict, its run count is the merged one, and a
#     configuration measured in one shard is compared with one of the
#     other when the shards split them);
#  4. search applies the study's checks before it starts: isolate = yes on
#     a busy (fake) machine is refused in one line naming --force, pin =
#     a CPU this process may not use is refused, and pin = 0 pins every
#     measured run of the search (affinity's allowed_* metrics); --force
#     starts it (pinned too: affinity prints its CPUs, and the reference
#     output is kept per build, whatever the pin).
#  5. tie_margin: a true tie (a and b draw from one distribution, their
#     code differs).  With the default margin (1%) the tie runs to
#     max_repeat 30 and says "not settled after 30 runs (tied, ... band
#     +-1%; 95% fall within +-X%)", X above 1 (what the two are known to
#     within); with tie_margin = 5% (and c, 15% slower) a study stops
#     before the cap (a CI run on a loaded machine saw one seed of three
#     run to it: nanosleep's wake-up jitter adds to the drawn noise), the
#     tie is settled (a and b share rank 1, nothing
#     fragile), the report states the margin (text, JSON tie_margin 0.05),
#     and c is still ranked apart (the margin settles ties, it never makes
#     one).  Checking after every round lets an unlucky round settle a true
#     tie as "apart" (2 of 16 two-configuration studies here, more with a
#     third configuration, whatever the margin), so the tie claims must
#     hold in at least one of four (three) seeds, and c's rank in all.
#  6. stable_rule: the default (obrien-fleming) and pocock are stored as
#     the fact stable_rule with stable_max_repeat, and the report's rule
#     text names the spending and its first and last look's level
#     (bonferroni: 5% / 26); JSON says the rule, and each verdict's
#     settle_level decides its settled; a rule it does not know is
#     refused in one line naming the three.
# About 30 s on 2 cores (jitter sleeps 10-13 ms a run).
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_verdicts
command -v python3 > /dev/null || { echo "SKIP: python3 reads the JSON and the database"; exit 77; }
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/affinity" home/workloads/
. "$FLAGSCOPE_SRC/tests/lib_jitter.sh"
study() { # NAME EXTRA-LINES: groups a < b < c = d
	jitter_study "$1" "$2" "a = -O2 -DFACTOR=100" "b = -O2 -DFACTOR=106" \
		"c = -O2 -DFACTOR=130" "d = -O1 -DFACTOR=130"
}

# 1. the dry run's repeat
study capped $'max_repeat = 12\nmax_seconds = 60'
study fixed "repeat = 3"
study auto $'repeat = auto\nmax_repeat = 9\ntarget = 2%'
fs run capped.study --dry-run > d1.txt
grep -q "^study capped: 4 configurations (0 excluded) x 1 workload, repeat stable (5 to 12 runs, at most 60 s)$" d1.txt ||
	fail "dry run of a stable study: $(head -1 d1.txt)"
out_has "x 1 workload, repeat 3$" fs run fixed.study --dry-run || fail "dry run of repeat = 3"
out_has "x 1 workload, repeat 2$" fs run capped.study --dry-run --repeat 2 || fail "dry run under --repeat 2"
fs run auto.study --dry-run > d2.txt
grep -q "repeat auto (5 to 9 runs, until the medians are known to +-2%)$" d2.txt || fail "dry run of repeat = auto: $(head -1 d2.txt)"
echo "ok 1 - the dry run says what repeat = stable, auto and N will do"

# 2. CSV's fragility columns against JSON and the text
study five "repeat = 5"
JITTER_SEED=7 fs run five.study --db five.db -q > /dev/null
fs report --db five.db -f csv > five.csv
fs report --db five.db -f json > five.json
fs report --db five.db > five.txt
python3 - <<'P'
import csv, json, re
rows = list(csv.DictReader(open("five.csv")))
head = open("five.csv").readline().strip().split(",")
at = head.index("versus")
assert head[at:at + 3] == ["versus", "p_change", "settled"], head
j = {c["label"]: c for c in json.load(open("five.json"))["configs"]}
text = open("five.txt").read()
fragile = set(re.findall(r"^(\S+) vs \S+: not settled after", text, re.M))
assert len(rows) == len(j) == 4, (len(rows), len(j))
for r in rows:
    c = j[r["label"]]
    assert r["versus"] == (c["versus"] or ""), (r, c["versus"])
    if c["p_change"] is None:
        assert r["p_change"] == "", r
    else:
        assert abs(float(r["p_change"]) - c["p_change"]) <= 1e-5 * max(1, c["p_change"]), (r, c)
    assert r["settled"] == ("1" if c["settled"] else "0"), (r, c["settled"])
    assert (r["settled"] == "0") == (r["label"] in fragile), (r, fragile)
print("# csv settled:", {r["label"]: r["settled"] for r in rows}, "not settled:", sorted(fragile))
P
echo "ok 2 - report --format csv: versus, p_change, settled agree with JSON and the text"

# 3. shards judge themselves; the merged report judges everything
study sharded $'max_repeat = 8'
JITTER_SEED=11 fs run sharded.study --shard 0/2 --db sh0.db > /dev/null 2> sh0.err
# -q hides progress, not these results (the Slurm scripts run shards with -q)
JITTER_SEED=12 fs run sharded.study --shard 1/2 --db sh1.db -q > /dev/null 2> sh1.err
for s in 0 1; do
	n=$(grep -c "repeat = stable: shard $s/2 judged settledness among its own samples only" "sh$s.err" || true)
	[ "$n" = 1 ] || fail "shard $s/2 says $n times that it judged within the shard: $(cat "sh$s.err")"
	grep -q "within shard $s/2" "sh$s.err" || fail "shard $s/2's end of repeat = stable: $(cat "sh$s.err")"
done
fs merge m.db sh0.db sh1.db > /dev/null
fs report --db m.db -f json > m.json
fs report --db m.db > m.txt
python3 - <<'P'
import json, re, sqlite3
def shard_of(label):
    for s in (0, 1):
        db = sqlite3.connect("sh%d.db" % s)
        if db.execute("select count(*) from runs r join configs c on c.id = r.config_id and "
                      "c.study = r.study where c.label = ? and r.rep > 0", (label,)).fetchone()[0]:
            return s
    return None
m = json.load(open("m.json"))
configs = {c["label"]: c for c in m["configs"]}
ranked = sorted((c for c in m["configs"] if c["rank"]), key=lambda c: c["rank"])
assert len(ranked) == 4, [(c["label"], c["status"]) for c in m["configs"]]
verdicts = [c for c in ranked if c["versus"]]
assert len(verdicts) == 3, [(c["label"], c["versus"]) for c in ranked]
for c in verdicts:
    assert c["p_change"] is not None, c
text = open("m.txt").read()
lines = re.findall(r"^(\S+) vs (\S+): not settled after (\d+) runs", text, re.M)
assert sorted(l[0] for l in lines) == sorted(c["label"] for c in verdicts if not c["settled"]), (lines, verdicts)
db = sqlite3.connect("m.db")
for a, b, n in lines:
    fewest = min(db.execute("select count(*) from runs r join configs c on c.id = r.config_id and "
                            "c.study = r.study where c.label = ? and r.rep > 0", (x,)).fetchone()[0]
                 for x in (a, b))
    assert int(n) == fewest, (a, b, n, fewest)
where = {l: shard_of(l) for l in configs}
assert None not in where.values(), where
cross = [c["label"] for c in verdicts if where[c["label"]] != where[c["versus"]]]
assert cross or len(set(where.values())) == 1, (where, verdicts)
print("# shards:", where, "verdicts across shards:", cross, "not settled:", lines)
P
echo "ok 3 - shards judge within themselves and say so; the merged report judges every verdict"

# 4. search runs the study's pin and isolate checks, and pins its runs
mkfake() {
	rm -rf "$1"; mkdir -p "$1/proc"
	cp /proc/cpuinfo "$1/proc/"
	echo "$2 0.00 0.00 1/100 1" > "$1/proc/loadavg"
}
mkfake busy 9.00
searchstudy() { # NAME EXTRA-LINE
	cat > "$1.study" <<S
; expect: see it_verdicts.sh part 4
[study]
name = $1
workloads = affinity
repeat = 2
baseline = O2
$2
[axis opt]
O2 = -O2
S
}
searchstudy quiet $'isolate = yes\npin = 0'
searchstudy badpin "pin = 1023"
echo -e '[space]\nflags = -funroll-loops' > one.space
sargs=(--space one.space --strategy random --budget 1 --metric time --no-minimise --confirm-repeat 0 -q)
set +e
FLAGSCOPE_MACHINE_ROOT=$T/busy fs search quiet.study "${sargs[@]}" --db q.db > /dev/null 2> e1.txt; rc1=$?
fs search badpin.study "${sargs[@]}" --db b.db > /dev/null 2> e2.txt; rc2=$?
set -e
[ "$rc1" = 2 ] && [ "$(wc -l < e1.txt)" = 1 ] &&
	grep -q "quiet.study:7: isolate = yes: the 1-minute load average is 9.00, above the isolate threshold" e1.txt &&
	grep -q -- "--force" e1.txt || fail "search on a busy machine: rc $rc1, $(cat e1.txt)"
[ ! -e q.db.search ] || [ -z "$(ls q.db.search)" ] || fail "a refused search ran batches"
[ "$rc2" = 2 ] && grep -q "badpin.study:7: pin: CPU 1023 is not one this process may run on" e2.txt ||
	fail "search with pin = 1023: rc $rc2, $(cat e2.txt)"
if python3 -c "import os, sys; a = os.sched_getaffinity(0); sys.exit(0 if 0 in a and len(a) > 1 else 1)"; then
	searchstudy pinned "pin = 0"
	fs search pinned.study "${sargs[@]}" --db p.db > /dev/null
	got=$(python3 -c "
import sqlite3
print(sqlite3.connect('p.db').execute(\"select count(*), min(value), max(value) from samples where metric = 'allowed_n'\").fetchone())")
	case $got in "(0,"*|*", 1.0, 1.0)") ;; *) fail "search's runs under pin = 0: (count, min, max allowed_n) $got";; esac
	case $got in "(0,"*) fail "search under pin = 0 stored no affinity samples";; esac
	FLAGSCOPE_MACHINE_ROOT=$T/busy fs search quiet.study "${sargs[@]}" --db q.db --force > /dev/null ||
		fail "search --force on a busy machine"
	echo "ok 4 - search refuses a busy machine and a bad pin, pins its runs ($got), --force starts it"
else
	echo "ok 4 - search refuses a busy machine and a bad pin (# pinned runs not checked: CPU 0 and another are not both allowed)"
fi

# 5. the tie margin
jitter_study tie1 "" "a = -O2 -DFACTOR=100" "b = -O1 -DFACTOR=100"
jitter_study tie5 "tie_margin = 5%" "a = -O2 -DFACTOR=100" "b = -O1 -DFACTOR=100" "c = -O2 -DFACTOR=115"
capped=0; settled=0
for seed in 41 42 43 44; do
	JITTER_SEED=$seed fs run tie1.study --db "tie1-$seed.db" -q > "tie1-$seed.txt" 2> /dev/null
	# a tie not settled says how close the two are known to be: wider than
	# the margin, or it would have settled
	band=$(sed -En "s/^(a vs b|b vs a): not settled after 30 runs \(tied, but [0-9]+% of the resamples fall outside the tie's band \+-1%; 95% fall within \+-([0-9.]+)%\)$/\2/p" "tie1-$seed.txt")
	[ -z "$band" ] || python3 -c "import sys; sys.exit(0 if float('$band') > 1 else 1)" ||
		fail "seed $seed: a tie not settled at +-1% holds +-$band%"
	[ -z "$band" ] || capped=$((capped + 1))
done
for seed in 31 32 33; do
	JITTER_SEED=$seed fs run tie5.study --db "tie5-$seed.db" -q > "tie5-$seed.txt" 2> /dev/null
	fs report --db "tie5-$seed.db" -f json > "tie5-$seed.json"
	grep -q "^Tie margin 5%: a tie is settled once 95% of the resamples put the two within 5% of each other" "tie5-$seed.txt" ||
		fail "seed $seed: the text does not state the margin"
	set +e
	python3 - "tie5-$seed.json" <<'P'
import json, sys
r = json.load(open(sys.argv[1]))
c = {x["label"]: x for x in r["configs"]}
n = c["a"]["workloads"][0]["n"]
assert abs(r["tie_margin"] - 0.05) < 1e-9, r["tie_margin"]
assert c["c"]["rank"] == 3, ("c is 15% slower", {k: v["rank"] for k, v in c.items()})
ranks = {k: v["rank"] for k, v in c.items()}
print("# %s: %d rounds, ranks %s, not settled %s" % (sys.argv[1], n, ranks, r["fragile"]))
# a seed may run to the cap on a loaded machine (nanosleep's wake-up
# jitter adds to the drawn noise); the loop asks that one seed in three
# settles the tie early, not every one
sys.exit(0 if n < 30 and ranks["a"] == ranks["b"] == 1 and not r["fragile"] else 3)
P
	rc=$?
	set -e
	case $rc in 0) settled=$((settled + 1));; 3) ;; *) fail "seed $seed under tie_margin = 5%";; esac
done
[ "$capped" -ge 1 ] || fail "the default margin settled a true tie before the cap in every seed"
[ "$settled" -ge 1 ] || fail "tie_margin = 5% settled the tie in no seed"
echo "ok 5 - a true tie: to the cap under the default margin ($capped of 4), settled under tie_margin = 5% ($settled of 3)"

# 6. stable_rule
grep -q "^repeat = stable looked up to 26 times: a verdict that ranks two apart is settled at its look's level of O'Brien-Fleming-type alpha spending of 5% (stable_rule): once at most 0.00016% of the resamples say otherwise after 5 runs, 3.1% after 30.$" tie5-31.txt ||
	fail "the default rule's text: $(grep "^repeat = stable" tie5-31.txt)"
jitter_study pocock $'stable_rule = pocock\nmax_repeat = 8' "a = -O2 -DFACTOR=100" "b = -O2 -DFACTOR=130"
JITTER_SEED=51 fs run pocock.study --db pocock.db -q > pocock.txt 2> /dev/null
grep -q "^repeat = stable looked up to 4 times: a verdict that ranks two apart is settled at its look's level of Pocock-type alpha spending of 5% (stable_rule): once at most [0-9.]*% of the resamples say otherwise after 5 runs, [0-9.]*% after 8.$" pocock.txt ||
	fail "pocock's rule text: $(grep "^repeat = stable" pocock.txt)"
[ "$(sql tie5-31.db "select value from facts where key = 'stable_rule'")" = obrien-fleming ] &&
	[ "$(sql pocock.db "select group_concat(value, ' ') from (select value from facts where key in ('stable_rule', 'stable_max_repeat', 'stable_looks') order by key)")" = "4 8 pocock" ] ||
	fail "the stored rules: $(sql pocock.db "select key, value from facts where key like 'stable_%'")"
jitter_study sidak "stable_rule = sidak" "a = -O2"
set +e
fs run sidak.study --dry-run > /dev/null 2> e6.txt; rc=$?
set -e
[ "$rc" = 2 ] && [ "$(cat e6.txt)" = "flagscope: sidak.study:8: stable_rule must be obrien-fleming, pocock or bonferroni, not 'sidak'" ] ||
	fail "an unknown stable_rule: rc $rc, $(cat e6.txt)"
fs report --db pocock.db -f json > pocock.json
python3 - pocock.json tie5-31.json <<'P'
import json, sys
for path, rule in zip(sys.argv[1:], ("pocock", "obrien-fleming")):
    d = json.load(open(path))
    assert d["stable_rule"] == rule, (path, d["stable_rule"])
    for c in d["configs"]:
        if c["versus"] and c["p_change"] is not None:
            assert 0 < c["settle_level"] <= 0.05 and c["settled"] == (c["p_change"] <= c["settle_level"]), (path, c)
P
echo "ok 6 - stable_rule: stored, named in the rule text and JSON, an unknown one refused"
