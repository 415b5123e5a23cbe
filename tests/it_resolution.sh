#!/bin/bash
# it_resolution: a meter's resolution in the verdict (issue 27,
# doc/statistics.md "Resolution").  The ticks fixture (runs of a few ms,
# mostly kernel time) measured by `user` at repeat = 2 with layouts = 3:
# O2 against five alignment-only copies of itself, an A/A study of 30
# parts whose user times are 0 or about one scheduler tick.  Expected:
# PASS.  The study stores every metric's resolution with it
# (resolution.user: the tick, 1 to 10 ms; resolution.time: 1 us or
# finer); no part is called significant; every part whose medians are
# both under 10 ticks says "below the meter's resolution (N ms)" in the
# table, in JSON (below_resolution, the stored figure) and CSV.  Without
# the stored resolution (the facts deleted: what a study measured before
# looks like, and what the rule did before) the same runs are judged
# again and the false calls counted: printed, not asserted (they depend on
# where the ticks landed: 1 false call in 4 studies on the development
# machine).  A report of the stored figure knows it on another
# machine: it is read from the database, not from this kernel.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_resolution
count_failures
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/ticks" home/workloads/

cat >s.study <<'S'
; expect: every part unchanged (an A/A study); user below the tick
[study]
name = s
workloads = ticks
repeat = 2
layouts = 3
meters = rusage
metric = user
baseline = O2
[axis layout]
O2 = -O2
F32 = -O2 -falign-functions=32
F64 = -O2 -falign-functions=64
L32 = -O2 -falign-loops=32
L64 = -O2 -falign-loops=64
J32 = -O2 -falign-jumps=32
S

fs run s.study --db s.db --format json >s.json 2>s.err || fail "run: $(tail -3 s.err)"
fact=$(sql s.db "select value from facts where key = 'resolution.user'")
[[ $fact == 0.00[1-9]" s: the scheduler tick"* || $fact == 0.01" s: the scheduler tick"* ]] ||
	fail "resolution.user is not the tick: '$fact'"
fact_time=$(sql s.db "select value from facts where key = 'resolution.time'")
[[ $fact_time == *" s: clock_getres(CLOCK_MONOTONIC)" ]] && awk -v v="${fact_time%% *}" 'BEGIN { exit !(v > 0 && v <= 1e-6) }' ||
	fail "resolution.time: '$fact_time'"
ok "stored: user $fact; time $fact_time"

python3 - s.json "${fact%% *}" <<'P' || fail "json"
import json, sys
rep = json.load(open(sys.argv[1]))
tick = float(sys.argv[2])
if rep.get("resolution") != tick:
    sys.exit(f"FAIL: the report's resolution {rep.get('resolution')}, want the stored {tick}")
judged = called = below = 0
for c in rep["configs"]:
    if c["label"] == "O2":
        continue
    for w in c["workloads"]:
        if w.get("ratio") is None:
            continue
        judged += 1
        if w["verdict"] != "unchanged":
            called += 1
            print(f"FAIL: {c['label']} {w['name']}: {w['verdict']} (ratio {w['ratio']}, p {w['p']})")
        if w.get("below_resolution") is not None:
            below += 1
            if w["below_resolution"] != tick:
                sys.exit(f"FAIL: below_resolution {w['below_resolution']}, want {tick}")
if called or judged < 10 or below < judged // 2:
    sys.exit(f"FAIL: {called} of {judged} A/A parts called significant, {below} below the resolution")
print(f"ok: 0 of {judged} A/A parts significant, {below} below the meter's resolution")
P

fs report --db s.db -s s >s.txt 2>&1 || fail "report: $(tail -2 s.txt)"
n_txt=$(grep -c "unchanged: below the meter's resolution ([0-9.]* ms)" s.txt)
n_json=$(python3 -c 'import json,sys; print(sum(1 for c in json.load(open(sys.argv[1]))["configs"] for w in c["workloads"] if w.get("below_resolution") is not None))' s.json)
fs report --db s.db -s s --format csv >s.csv 2>&1 || fail "csv"
n_csv=$(python3 -c 'import csv,sys; print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r["below_resolution"]))' s.csv)
[ "$n_txt" -gt 0 ] && [ "$n_txt" = "$n_json" ] && [ "$n_csv" = "$n_json" ] ||
	fail "below the resolution: $n_txt in the table, $n_json in JSON, $n_csv in CSV"

# the same runs judged without the stored resolution: the rule before it
python3 - s.db <<'P'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("DELETE FROM facts WHERE key LIKE 'resolution.%'")
db.commit()
P
fs report --db s.db -s s --format json >bare.json 2>&1 || fail "report without resolutions"
python3 - bare.json <<'P' || fail "bare"
import json, sys
rep = json.load(open(sys.argv[1]))
calls = [f"{c['label']} {w['name']} {w['verdict']} {w['ratio']:.2f}" for c in rep["configs"]
         if c["label"] != "O2" for w in c["workloads"]
         if w.get("ratio") is not None and w["verdict"] != "unchanged"]
if rep.get("resolution") is not None or any(w.get("below_resolution") is not None
                                            for c in rep["configs"] for w in c["workloads"]):
    sys.exit("FAIL: a resolution without the stored fact")
print(f"without the resolution: {len(calls)} false call(s): {', '.join(calls) or 'none'}")
P
# A real difference below the resolution: O2 against a copy that spins
# a few ms more (EXTRA_SPIN), its user time 0 in most runs against one or
# two ticks.  The rule before the resolution called parts of it improved
# (ratio 0 from medians of 0 and a tick, the nested bootstrap's p) in 5
# of 6 such studies on the development machine (1 to 4 of the 6 parts);
# with it, none.  Printed, not asserted: it depends on the ticks.
cat >d.study <<'S'
; expect: no part significant: every user time below 10 ticks
[study]
name = d
workloads = ticks
repeat = 2
layouts = 3
meters = rusage
metric = user
baseline = more
[axis spin]
more = -O2 -DEXTRA_SPIN=6000000
O2 = -O2
S
fs run d.study --db d.db --format json >d.json 2>d.err || fail "run d: $(tail -3 d.err)"
count_calls() {
	python3 -c 'import json, sys
rep = json.load(open(sys.argv[1]))
calls = [w["name"] for c in rep["configs"] if c["label"] == "O2" for w in c["workloads"]
         if w.get("ratio") is not None and w["verdict"] != "unchanged"]
print(len(calls), " ".join(calls))' "$1"
}
read -r called names < <(count_calls d.json)
[ "$called" = 0 ] || fail "a difference below the resolution called significant: $names"
python3 - d.db <<'P'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("DELETE FROM facts WHERE key LIKE 'resolution.%'")
db.commit()
P
fs report --db d.db -s d --format json >d_bare.json 2>&1 || fail "report d without resolutions"
echo "a sub-tick difference: 0 parts significant with the resolution, $(count_calls d_bare.json) without"
finish_counted
