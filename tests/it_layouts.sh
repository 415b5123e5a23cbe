#!/bin/bash
# it_layouts: layouts = 3 (issue 27, doc/layout.md) on tiny at -O2, -O0
# and -O2 -falign-loops=64, 4 runs each.  Expected: PASS.  --dry-run says
# what layouts costs (9 builds instead of 3); the run makes 3 builds per
# configuration, each variant its own build key with "layout=v" in its
# configuration, the layout checks of O2's and O0's variants ok (same
# functions and sizes, some moved), 4 runs per variant.  gcc 12 aligns
# functions to the loops' 64 bytes under -falign-loops=64, so O2al's
# variant 1 (-falign-functions=32) moves nothing: it is rejected, stored
# unsupported with the reason and never run, and O2al is judged over its
# other 2 layouts.  The report ranks 3 configurations, O0's workload
# judged over 3 layouts, its ratio the mean of the layouts' medians
# (recomputed here from the stored samples), its verdict the nested
# rule's (significant exactly when p < 0.05 and |ratio - 1| >= 1%); and
# the study without layouts keeps one build per configuration.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_layouts
count_failures

cat >s.study <<'S'
; expect: 3 configurations x 3 layouts = 9 builds, O2al's layout 1
; rejected by the layout check, every other check ok; the report ranks O2,
; O0 (over 3 layouts) and O2al (over 2)
[study]
workloads = tiny
repeat = 4
layouts = 3
meters = rusage
baseline = O2
[axis opt]
O2 = -O2
O0 = -O0
O2al = -O2 -falign-loops=64
S

fs run s.study --db s.db --dry-run >dry.out 2>dry.err || fail "dry run: $(tail -2 dry.err)"
grep -q "^study s: 3 configurations" dry.out || fail "dry run: not 2 configurations: $(head -1 dry.out)"
grep -q "^layouts 3: .*9 builds instead of 3, and 3 times the runs" dry.out ||
	fail "dry run does not say what layouts costs: $(grep layouts dry.out)"

fs run s.study --db s.db --format json >s.json 2>s.err || fail "run: $(tail -3 s.err)"
[ "$(sql s.db "select count(*) from builds where status = 'ok'")" = 8 ] ||
	fail "builds ok (8 wanted): $(sql s.db "select config_id, status, detail from builds")"
[ "$(sql s.db "select count(distinct key) from builds")" = 9 ] || fail "9 distinct build keys wanted"
rejected=$(sql s.db "select c.label || ': ' || b.status || ': ' || b.detail from builds b join configs c on c.id = b.config_id where b.status <> 'ok'")
[[ $rejected == "O2al [layout 1]: unsupported: layout variant 1 not used: none of "*" functions moved"* ]] ||
	fail "O2al's layout 1 is not recorded as rejected: $rejected"
[ "$(sql s.db "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'O2al [layout 1]'")" = 0 ] ||
	fail "a rejected variant was run"
got=$(sql s.db "select layout || ':' || count(*) from configs group by layout order by layout" | tr '\n' ' ')
[ "$got" = "0:3 1:3 2:3 " ] || fail "configurations per layout: $got"
[ "$(sql s.db "select count(*) from configs v join configs p on p.id = v.layout_of and p.layout = 0 where v.layout > 0 and v.cflags = p.cflags || ' -falign-functions=' || (16 << v.layout)")" = 6 ] ||
	fail "variants do not name their plain configuration and flag: $(sql s.db "select label, cflags, layout, layout_of from configs")"
checks=$(sql s.db "select count(*) from facts where key like 'layout.%' and value like 'ok: %moved%'")
[ "$checks" = 5 ] || fail "layout checks ok: $checks of 5: $(sql s.db "select key, value from facts where key like 'layout.%'")"
[ "$(sql s.db "select count(*) from facts where key like 'layout.%' and value like 'rejected: %'")" = 1 ] ||
	fail "one layout check rejected wanted: $(sql s.db "select key, value from facts where key like 'layout.%'")"
per=$(sql s.db "select count(*) from runs where rep >= 1 and status = 'ok' group by config_id" | sort -u | tr '\n' ' ')
[ "$per" = "4 " ] || fail "runs per variant: $per"

python3 - s.db s.json <<'P' || fail "report"
import json, sqlite3, statistics, sys
db = sqlite3.connect(sys.argv[1])
rep = json.load(open(sys.argv[2]))
labels = [c["label"] for c in rep["configs"]]
if sorted(labels) != ["O0", "O2", "O2al"]:
    sys.exit(f"FAIL: the report ranks {labels}, want O0, O2 and O2al only")
al = next(c for c in rep["configs"] if c["label"] == "O2al")["workloads"][0]
if al["layouts"] != 2 or al["n"] != 8:
    sys.exit(f"FAIL: O2al judged over {al['layouts']} layouts and {al['n']} runs, want 2 and 8 (its layout 1 rejected)")
def mean_of_medians(label):
    ids = [r[0] for r in db.execute(
        "select id from configs where label = ? or layout_of = (select id from configs where label = ?) order by layout", (label, label))]
    meds = []
    for i in ids:
        v = [r[0] for r in db.execute("select s.value from samples s join runs r using (study, config_id, workload, run, rep) "
                                       "where s.config_id = ? and s.metric = 'time' and s.rep >= 1 and r.status = 'ok'", (i,))]
        meds.append(statistics.median(v))
    return len(ids), sum(meds) / len(meds)
o0 = next(c for c in rep["configs"] if c["label"] == "O0")
w = o0["workloads"][0]
k, cand = mean_of_medians("O0")
_, base = mean_of_medians("O2")
if k != 3 or w["layouts"] != 3 or w["n"] != 12 or w["n_baseline"] != 12:
    sys.exit(f"FAIL: layouts {w['layouts']} ({k} stored), n {w['n']}, n_baseline {w['n_baseline']}: want 3, 12, 12")
if abs(w["ratio"] / (cand / base) - 1) > 1e-5:
    sys.exit(f"FAIL: ratio {w['ratio']} is not the mean of the layouts' medians {cand / base}")
sig = w["p"] < 0.05 and abs(w["ratio"] - 1) >= 0.01
if (w["verdict"] != "unchanged") != sig:
    sys.exit(f"FAIL: verdict {w['verdict']} with p {w['p']} ratio {w['ratio']}")
if "nested bootstrap" not in rep["rule"]:
    sys.exit("FAIL: the report's rule does not say the nested rule judged")
print(f"ok: O0/O2 over 3 layouts: ratio {w['ratio']:.4f} ci {w['ci']} p {w['p']} {w['verdict']}")
P

sed -i 's/^layouts = 3$/layouts = 1/' s.study
fs run s.study --db one.db --dry-run >one.out 2>&1 || fail "layouts = 1 dry run: $(tail -2 one.out)"
grep -q "^layouts" one.out && fail "layouts = 1 says a cost: $(grep ^layouts one.out)"
[ "$(grep -c ' build ' one.out)" = 3 ] || fail "layouts = 1: $(grep -c ' build ' one.out) builds listed, want 3"
finish_counted
