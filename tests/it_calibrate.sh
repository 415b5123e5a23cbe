#!/bin/bash
# it_calibrate.sh - flagscope calibrate end to end (issue 27) on crc32 and
# nbody at their `; test-args =` sizes: gcc -O2 and two alignment-only
# builds of it, 4 runs each.  Expected: PASS, with
#   - --dry-run saying the builds and runs it will take, building nothing;
#   - each round in its own order of the configurations (seeded);
#   - the ASLR-off pass (where the kernel allows it) run round by round
#     with the first, not after it: no run of repetition k + 1 of either
#     stored before every run of repetition k;
#   - calibrate storing one floor per workload (table calibrations, the
#     machine's id and CPU, metric time), printing them (table and JSON);
#   - report --min-effect auto (and the default) of the calibration's own
#     study saying it judges by the calibrated floors, and some A/A pair
#     (an alignment-only build against the baseline) "unchanged: within
#     layout noise (+-x%)": every such pair lies within the largest layout
#     difference the floor is made of;
#   - HTML and CSV (column layout_noise) saying it on the same items;
#   - report --min-effect 1% saying neither; compare of an alignment-only
#     build against the baseline saying "within layout noise" too;
#   - a database without a calibration saying none was found.
# About 30-60 s here (the ASLR-off pass doubles the runs where allowed).
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh"
scratch it_calibrate
count_failures
test_size_workloads crc32 nbody
aa_study c.study cal "crc32 nbody" 4 1 f64=-falign-functions=64 l64=-falign-loops=64

if ! fs calibrate c.study --db r.db --dry-run >dry.out 2>dry.err; then
	fail "calibrate --dry-run exited $?: $(tail -n 3 dry.err)"
else
	grep -q "8 builds .*runs" dry.out || fail "--dry-run does not say 8 builds and the runs: $(cat dry.out)"
	[ ! -e r.db ] || fail "--dry-run made a database"
fi

if ! fs calibrate c.study --db r.db -q >cal.out 2>cal.err; then
	fail "calibrate exited $?: $(tail -n 3 cal.err)"
else
	rows=$(sql r.db "select item || ' ' || metric || ' ' || (floor >= 0) || ' ' || length(machine) from calibrations order by item")
	[ "$rows" = "$(printf 'crc32 time 1 16\nnbody time 1 16')" ] ||
		fail "stored calibrations: '$rows' (want crc32 and nbody, metric time, a floor, a 16-digit machine)"
	grep -q "^crc32 " cal.out && grep -q "^nbody " cal.out || fail "calibrate does not print both workloads: $(cat cal.out)"
	[ "$failures" = 0 ] && ok "floors stored: $(sql r.db "select item || '=' || round(100 * floor, 2) || '%' from calibrations" | tr '\n' ' ')"
fi

# a round runs the configurations in an order of its own (seeded by the
# round): with one order for all, the same place of every round fell to
# the same configuration (doc/layout.md "A/A with layouts")
python3 - r.db <<'P' || fail "every round runs the configurations in one order"
import sqlite3, sys
orders = {}
for cfg, w, rep in sqlite3.connect(sys.argv[1]).execute(
        "select config_id, workload, rep from runs where study = 'cal' and rep >= 1 order by rowid"):
    orders.setdefault((w, rep), []).append(cfg)
per_w = {}
for (w, rep), o in orders.items():
    assert len(set(o)) == len(o) == 4, (w, rep, o)
    per_w.setdefault(w, set()).add(tuple(o))
assert all(len(v) > 1 for v in per_w.values()), per_w
print(f"ok: {len(orders)} rounds, {sum(len(v) for v in per_w.values())} orders of the 4 configurations")
P

# the ASLR-off pass runs round by round with the first: every run of
# repetition k of either pass is stored before any of repetition k + 1
# (the runs table's rowid is the order they were stored in)
if grep -q "no second pass with ASLR off" dry.out; then
	echo "note: $(grep -o 'no second pass.*' dry.out): its rounds not checked here"
else
	python3 - r.db <<'P' || fail "the ASLR-off pass is not interleaved with the first round by round"
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "select study, rep from runs where rep >= 1 order by rowid").fetchall()
studies = {s for s, _ in rows}
assert studies == {"cal", "cal.aslr-off"}, studies
reps = [r for _, r in rows]
assert reps == sorted(reps), reps
print(f"ok: {len(rows)} runs of cal and cal.aslr-off stored round by round, repetitions 1 to {reps[-1]}")
P
fi

fs calibrate c.study --db r.db -q --aslr-on-only --format json >cal.json 2>cal2.err ||
	fail "calibrate --format json exited $?: $(tail -n 2 cal2.err)"
python3 - cal.json <<'P' || fail "calibrate --format json: $(head -c 300 cal.json)"
import json, sys
d = json.load(open(sys.argv[1]))
items = {i["item"]: i for i in d["items"]}
assert set(items) == {"crc32", "nbody"}, items
assert all(i["floor"] >= 0 and i["runs"] == 4 for i in items.values()), items
assert len(d["machine"]) == 16 and d["cpu"], d
P

# the calibration's own study: alignment-only builds against the baseline
fs report --db r.db --study cal >auto.txt 2>auto.err || fail "report exited $?: $(tail -n 2 auto.err)"
grep -q "calibrated floor per workload" auto.txt || fail "report (default auto) does not say it uses the floors: $(head -n 8 auto.txt)"
grep -q "within layout noise (±[0-9.]*%)" auto.txt ||
	fail "no A/A pair is 'within layout noise': $(cat auto.txt)"
fs report --db r.db --study cal --format json >auto.json 2>&1 || fail "report --format json exited $?"
python3 - auto.json <<'P' || fail "report --format json: no min_effect_floors for crc32 and nbody, or no layout_noise"
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d["min_effect_floors"]) == {"crc32", "nbody"}, d["min_effect_floors"]
assert any(w["layout_noise"] for c in d["configs"] for w in c["workloads"]), "layout_noise"
P
fs report --db r.db --study cal --min-effect auto >auto2.txt 2>&1 || fail "report --min-effect auto exited $?"
cmp -s auto.txt auto2.txt || fail "--min-effect auto differs from the default"
fs report --db r.db --study cal --min-effect 1% >fixed.txt 2>&1 || fail "report --min-effect 1% exited $?"
! grep -q "within layout noise\|calibrated floor" fixed.txt || fail "--min-effect 1% still reads the floors"
[ "$failures" = 0 ] && ok "report: $(grep -c 'within layout noise' auto.txt) pairs within layout noise with auto, none with 1%"

# HTML and CSV say it too, on the same items as the table (each item's
# line there is followed by its "within layout noise" line when it is)
fs report --db r.db --study cal --format html >auto.html 2>&1 || fail "report --format html exited $?"
fs report --db r.db --study cal --format csv >auto.csv 2>&1 || fail "report --format csv exited $?"
want=$(grep -c "within layout noise (±[0-9.]*%)" auto.txt)
got=$(grep -c '<span class="note layout-noise">within layout noise (±[0-9.]*%)</span>' auto.html)
[ "$got" = "$want" ] || fail "HTML says within layout noise $got times, the table $want"
python3 - auto.csv "$want" <<'P' || fail "report --format csv: no layout_noise column, or not on the table's items"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
noisy = [r for r in rows if r["layout_noise"]]
assert len(noisy) == int(sys.argv[2]), (len(noisy), sys.argv[2])
assert all(r["verdict"] == "unchanged" and 0 < float(r["layout_noise"]) for r in noisy), noisy
assert all(abs(float(r["ratio"]) - 1) < float(r["layout_noise"]) for r in noisy), noisy
P
[ "$failures" = 0 ] && ok "html and csv: $want items within layout noise, as the table"

# compare reads the same rule: some alignment-only build within layout noise
for c in f64 l64; do fs compare --db r.db --study cal --baseline O2 --candidate $c; done >cmp.txt 2>cmp.err
grep -q "within layout noise (±[0-9.]*%)" cmp.txt || fail "compare says no pair is within layout noise: $(cat cmp.txt cmp.err)"

# a database without a calibration: the fixed 1% and a note
aa_study plain.study plain "crc32 nbody" 2 1 f64=-falign-functions=64 l64=-falign-loops=64
if fs run plain.study --db plain.db -q >/dev/null 2>plain.err; then
	out_has "No calibration of this machine was found" fs report --db plain.db ||
		fail "report without a calibration does not say so"
else
	fail "run plain.study: $(tail -n 2 plain.err)"
fi
finish_counted
