#!/bin/bash
# it_calibrate.sh - flagscope calibrate end to end (issue 27) on crc32 and
# nbody at their `; test-args =` sizes: gcc -O2 and two alignment-only
# builds of it, 4 runs each.  Expected: PASS, with
#   - --dry-run saying the builds and runs it will take, building nothing;
#   - calibrate storing one floor per workload (table calibrations, the
#     machine's id and CPU, metric time), printing them (table and JSON);
#   - report --min-effect auto (and the default) of the calibration's own
#     study saying it judges by the calibrated floors, and some A/A pair
#     (an alignment-only build against the baseline) "unchanged: within
#     layout noise (+-x%)": every such pair lies within the largest layout
#     difference the floor is made of;
#   - report --min-effect 1% saying neither; compare of an alignment-only
#     build against the baseline saying "within layout noise" too;
#   - a database without a calibration saying none was found.
# About 30-60 s here (the ASLR-off pass doubles the runs where allowed).
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh"
scratch it_calibrate
count_failures
mkdir -p workloads
for w in crc32 nbody; do
	cp -r "$FLAGSCOPE_SRC/workloads/$w" workloads/
	targs=$(sed -n 's/^; test-args = //p' "workloads/$w/recipe.ini")
	[ -n "$targs" ] || fail "$w has no test-args line"
	sed -i "0,/^args = /s/^args = .*/args = $targs/; /^expect = /d" "workloads/$w/recipe.ini"
done
cat >c.study <<'EOF'
; expect: 3 configurations ok (and the baseline's copy); a floor per workload
[study]
name = cal
workloads = crc32 nbody
repeat = 4
baseline = O2
meters = rusage
[axis layout]
O2 = -O2
f64 = -O2 -falign-functions=64
l64 = -O2 -falign-loops=64
EOF

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

# compare reads the same rule: some alignment-only build within layout noise
for c in f64 l64; do fs compare --db r.db --study cal --baseline O2 --candidate $c; done >cmp.txt 2>cmp.err
grep -q "within layout noise (±[0-9.]*%)" cmp.txt || fail "compare says no pair is within layout noise: $(cat cmp.txt cmp.err)"

# a database without a calibration: the fixed 1% and a note
cp c.study plain.study && sed -i 's/^name = cal/name = plain/; s/^repeat = 4/repeat = 2/' plain.study
if fs run plain.study --db plain.db -q >/dev/null 2>plain.err; then
	out_has "No calibration of this machine was found" fs report --db plain.db ||
		fail "report without a calibration does not say so"
else
	fail "run plain.study: $(tail -n 2 plain.err)"
fi
finish_counted
